import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { parseOenb } from './oenb.js';

const FIXTURE = 'oenb-synthetic.csv';
const fixtureLines = new TextDecoder().decode(readFixture(FIXTURE)).split('\r\n');

function withLines(edit: (lines: string[]) => void): Uint8Array {
  const lines = [...fixtureLines];
  edit(lines);
  return new TextEncoder().encode(lines.join('\r\n'));
}

function rejects(bytes: Uint8Array, pattern: RegExp): void {
  assert.throws(
    () => parseOenb(bytes),
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('parseOenb on the synthetic fixture', () => {
  const snapshot = parseOenb(readFixture(FIXTURE));

  it('takes the snapshot date from the query line and keys rows by BLZ', () => {
    assert.equal(snapshot.snapshot_date, '2024-02-01');
    assert.deepEqual(
      snapshot.records.map((r) => r.record_key),
      ['99901', '99902', '99903'],
    );
    assert.equal(snapshot.row_count, 3);
  });

  it('maps Kennzeichen, names, address, BIC, LEI and the domestic codes', () => {
    const [head, further, branch] = snapshot.records;
    assert.deepEqual(
      [head?.record_type, further?.record_type, branch?.record_type],
      ['bank', 'bank', 'branch'],
    );
    assert.equal(head?.legal_name, 'Synthetische Testbank AG');
    assert.deepEqual(head?.address, {
      street: 'Teststraße 1',
      postal_code: '1010',
      city: 'Wien',
      region: 'Wien',
    });
    assert.equal(head?.bic, 'SYNTATW1XXX');
    assert.equal(head?.lei, 'SYNTHPARENT000000198');
    assert.deepEqual(head?.domestic_codes, [
      { scheme: 'at_blz', value: '99901' },
      { scheme: 'at_oenb_ident', value: '900001' },
      { scheme: 'at_firmenbuch', value: '999999z' },
    ]);
    assert.equal(branch?.bic, null);
    assert.equal(branch?.lei, null);
    assert.equal(head?.fields['Gründungsdatum'], '01.01.2000');
  });
});

describe('parseOenb rejects malformed input with the line number', () => {
  it('a missing query-date line', () =>
    rejects(
      withLines((l) => (l[4] = 'Abfrage')),
      /^OeNB SEPA directory line 5: missing "SEPA-Verzeichnis-Abfrage vom/,
    ));
  it('a missing header', () =>
    rejects(
      withLines((l) => l.splice(5, 1)),
      /line 6: missing header/,
    ));
  it('a row with a column too few', () =>
    rejects(
      withLines((l) => (l[7] = (l[7] ?? '').replace(/;[^;]*$/, ''))),
      /line 8: 21 columns, expected 22/,
    ));
  it('a quoted field', () =>
    rejects(
      withLines((l) => (l[6] = (l[6] ?? '').replace('Synthetische', '"Synthetische'))),
      /line 7: quoted field/,
    ));
  it('a duplicate BLZ', () =>
    rejects(
      withLines((l) => (l[7] = (l[7] ?? '').replace('99902', '99901'))),
      /line 8: duplicate key 99901 \(first at line 7\)/,
    ));
  it('a file with no rows', () =>
    rejects(
      withLines((l) => l.splice(6)),
      /line 7: no data rows/,
    ));
});

describe('parseOenb on the real OeNB files', { skip: needsShared }, () => {
  it('reads 871 rows per file with their header dates, LEIs and BICs', () => {
    const first = parseOenb(readShared('oenb-sepa-verzeichnis/2025-09-15/at.csv'));
    const second = parseOenb(readShared('oenb-sepa-verzeichnis/2025-09-22/at.csv'));
    assert.deepEqual([first.row_count, second.row_count], [871, 871]);
    assert.deepEqual([first.snapshot_date, second.snapshot_date], ['2025-09-15', '2025-09-22']);
    assert.equal(first.records.filter((r) => r.lei !== null).length, 858);
    assert.equal(first.records.filter((r) => r.bic !== null).length, 865);
  });
});
