import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssertionFailure } from '../../assert.js';
import { AppError } from '../../errors.js';
import { fieldTable, sliceFields } from './fixed-width.js';
import { normalizeBic, decodeText, isoFromDayMonthYear } from './common.js';

const table = fieldTable('Test file', 10, [
  { name: 'code', position: 1, width: 3, example: '001' },
  { name: 'city', position: 4, width: 7, example: 'Köln' },
]);

describe('fieldTable', () => {
  it('rejects gaps, overlaps and a wrong total width', () => {
    assert.throws(
      () => fieldTable('T', 5, [{ name: 'a', position: 2, width: 5, example: '' }]),
      AssertionFailure,
    );
    assert.throws(
      () =>
        fieldTable('T', 5, [
          { name: 'a', position: 1, width: 3, example: '' },
          { name: 'b', position: 3, width: 3, example: '' },
        ]),
      AssertionFailure,
    );
    assert.throws(
      () => fieldTable('T', 6, [{ name: 'a', position: 1, width: 5, example: '' }]),
      AssertionFailure,
    );
  });
});

describe('sliceFields', () => {
  it('slices by characters, so a multi-byte umlaut is one column', () => {
    assert.deepEqual(sliceFields(table, '001Köln   ', 1), { code: '001', city: 'Köln' });
  });

  it('counts astral characters as one column', () => {
    assert.deepEqual(sliceFields(table, '002𝔸bc    ', 1), { code: '002', city: '𝔸bc' });
  });

  it('names the line of a wrong-width record', () => {
    assert.throws(
      () => sliceFields(table, '001Köln', 7),
      (e: unknown) =>
        e instanceof AppError &&
        e.message === 'Test file line 7: truncated line: 7 characters, expected 10',
    );
  });
});

describe('shared helpers', () => {
  it('normalizes BICs without inventing one', () => {
    assert.equal(normalizeBic('gkcc be bb'), 'GKCCBEBB');
    assert.equal(normalizeBic(' NBBE BE BB 203 '), 'NBBEBEBB203');
    assert.equal(normalizeBic('NAV'), null);
    assert.equal(normalizeBic('ABCDEFGHIJ'), null);
    assert.equal(normalizeBic(''), null);
  });

  it('decodes ISO-8859-1 byte for byte (not as windows-1252)', () => {
    assert.equal(
      decodeText(Uint8Array.from([0x4b, 0xf6, 0x6c, 0x6e, 0x80]), 'auto', 'T'),
      'Köln\u0080',
    );
    assert.equal(decodeText(new TextEncoder().encode('\uFEFFKöln'), 'auto', 'T'), 'Köln');
  });

  it('reads only real calendar dates', () => {
    assert.equal(isoFromDayMonthYear('29.02.2024'), '2024-02-29');
    assert.equal(isoFromDayMonthYear('29.02.2025'), null);
    assert.equal(isoFromDayMonthYear('04/08/2025'), '2025-08-04');
  });
});
