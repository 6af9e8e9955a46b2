// Goal: only ASCII spaces and case are forgiven; every other character is reported at its index.
// Method: one assertion per character family QA teams send.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeCharacter,
  formatIbanPrint,
  normalizeIbanInput,
  scanClean,
  scanIbanInput,
  scanNeedsNormalizing,
} from './normalize.js';

describe('scanIbanInput', () => {
  it('recognises electronic format and inputs that only need spaces or case fixed', () => {
    assert.equal(scanIbanInput('DE89370400440532013000'), scanClean);
    assert.equal(scanIbanInput(''), scanClean);
    assert.equal(scanIbanInput('DE89 3704 0044 0532 0130 00'), scanNeedsNormalizing);
    assert.equal(scanIbanInput('de89370400440532013000'), scanNeedsNormalizing);
  });

  it('reports the index of the first character no IBAN may contain', () => {
    const cases: readonly (readonly [string, number])[] = [
      ['DE89\t3704', 4],
      ['DE89\u00a03704', 4],
      ['DE89-3704', 4],
      ['DE89.3704', 4],
      ['DE89\u00003704', 4],
      ['DE89\n', 4],
      ['DÄ89', 1],
      ['\u0410T61', 0],
      ['DE89 3704 🙂', 10],
      ['DE89_', 4],
      ['DE89\u20033704', 4],
    ];
    for (const [input, index] of cases)
      assert.equal(scanIbanInput(input), index, JSON.stringify(input));
  });
});

describe('normalizeIbanInput', () => {
  it('drops ASCII spaces and upper-cases ASCII letters, keeping anything else', () => {
    assert.equal(normalizeIbanInput('  de89 3704 0044 0532 0130 00  '), 'DE89370400440532013000');
    assert.equal(normalizeIbanInput('de89-3704ä'), 'DE89-3704ä');
    assert.equal(normalizeIbanInput(''), '');
  });

  it('handles very long input without exhausting the stack', () => {
    const long = 'a b'.repeat(100_000);
    assert.equal(normalizeIbanInput(long), 'AB'.repeat(100_000));
  });
});

describe('formatIbanPrint', () => {
  it('groups by four with single spaces', () => {
    assert.equal(formatIbanPrint('DE89370400440532013000'), 'DE89 3704 0044 0532 0130 00');
    assert.equal(formatIbanPrint('NO9386011117947'), 'NO93 8601 1117 947');
  });
});

describe('describeCharacter', () => {
  it('quotes printable ASCII and names the rest by code point', () => {
    assert.equal(describeCharacter('-'), "'-'");
    assert.equal(describeCharacter('\u00a0'), 'U+00A0');
    assert.equal(describeCharacter('\t'), 'U+0009');
    assert.equal(describeCharacter('🙂'), 'U+1F642');
  });
});
