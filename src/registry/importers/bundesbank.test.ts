import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { bundesbankTable, parseBundesbank } from './bundesbank.js';
import { sliceFields } from './fixed-width.js';

const FIXTURE = 'bundesbank-synthetic-latin1.txt';

function latin1Text(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

function encodeLatin1(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
}

function rejects(bytes: Uint8Array, pattern: RegExp, options = {}): void {
  assert.throws(
    () => parseBundesbank(bytes, options),
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('parseBundesbank on the synthetic ISO-8859-1 fixture', () => {
  const snapshot = parseBundesbank(readFixture(FIXTURE), { snapshotDate: '2024-03-04' });

  it('decodes ISO-8859-1 before slicing, so umlauts land in the right columns', () => {
    const [main, branch, other] = snapshot.records;
    assert.equal(main?.legal_name, 'Synthetische Testbank Köln');
    assert.equal(main?.address.city, 'Köln');
    assert.equal(branch?.address.city, 'Köln-Süd');
    assert.equal(other?.short_name, 'Synth Übergang');
    assert.equal(main?.fields.plz, '50667');
  });

  it('maps Merkmal, Datensatznummer, method, successor and deletion flag', () => {
    assert.deepEqual(
      snapshot.records.map((r) => [r.record_key, r.record_type]),
      [
        ['99999901', 'bank'],
        ['99999901-900002', 'branch'],
        ['99999902', 'bank'],
      ],
    );
    const [main, branch, other] = snapshot.records;
    assert.equal(main?.bic, 'SYNTDEK1XXX');
    assert.equal(branch?.bic, null);
    assert.equal(other?.account_checksum_method, 'A1');
    assert.deepEqual(other?.successor, { scheme: 'de_blz', value: '99999901', effective_at: null });
    assert.equal(other?.deletion_planned, true);
    assert.equal(main?.successor, null);
    assert.deepEqual(main?.domestic_codes, [{ scheme: 'de_blz', value: '99999901' }]);
    assert.equal(snapshot.snapshot_date, '2024-03-04');
    assert.equal(snapshot.row_count, 3);
    assert.deepEqual(snapshot.ignored_fields, ['aenderungskennzeichen']);
  });

  it('reads the same records from a UTF-8 re-encoding', () => {
    const utf8 = new TextEncoder().encode(latin1Text(readFixture(FIXTURE)));
    assert.deepEqual(
      parseBundesbank(utf8, { snapshotDate: '2024-03-04' }).records,
      snapshot.records,
    );
  });
});

describe('parseBundesbank rejects malformed input with the line number', () => {
  const lines = latin1Text(readFixture(FIXTURE)).split('\r\n');

  it('a truncated line', () => {
    const broken = [lines[0], lines[1]?.slice(0, 150), lines[2]].join('\r\n');
    rejects(
      encodeLatin1(broken),
      /^Bundesbank BLZ file line 2: truncated line: 150 characters, expected 168$/,
    );
  });

  it('a line that is too long', () => {
    rejects(encodeLatin1([lines[0], `${lines[1]}X`].join('\r\n')), /line 2: line too long/);
  });

  it('a shifted field', () => {
    const shifted = `${lines[0]?.slice(0, 8)}3${lines[0]?.slice(9)}`;
    rejects(encodeLatin1(shifted), /line 1: field merkmal has unexpected value "3"/);
  });

  it('a duplicate Datensatznummer', () => {
    rejects(
      encodeLatin1([lines[0], lines[0]].join('\r\n')),
      /line 2: duplicate key 900001 \(first at line 1\)/,
    );
  });

  it('ISO-8859-1 bytes when UTF-8 is forced', () => {
    rejects(readFixture(FIXTURE), /line 1: not valid UTF-8/, { encoding: 'utf-8' });
  });

  it('an empty file', () => {
    rejects(new Uint8Array(), /line 1: no records/);
  });

  it('an empty line in the middle', () => {
    rejects(
      encodeLatin1([lines[0], '', lines[2]].join('\r\n')),
      /line 2: truncated line: 0 characters/,
    );
  });
});

describe('parseBundesbank on the real Bundesbank files', { skip: needsShared }, () => {
  const june = parseBundesbank(readShared('bundesbank-blz/2025-06-09/bundesbank.txt'), {
    snapshotDate: '2025-06-09',
  });
  const september = parseBundesbank(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'), {
    snapshotDate: '2025-09-08',
  });
  const old = parseBundesbank(
    readShared('bundesbank-blz/2015-09-07-original-iso-8859-1/bundesbank.txt'),
  );

  it('reads every row and every main record the README counts', () => {
    assert.deepEqual(
      [june.row_count, september.row_count, old.row_count],
      [14_170, 14_101, 18_424],
    );
    const mains = (s: typeof june): number =>
      s.records.filter((r) => r.record_type === 'bank').length;
    assert.deepEqual([mains(june), mains(september), mains(old)], [3_514, 3_513, 3_713]);
  });

  it('the field table examples are the Bundesbank record, sliced from the real file', () => {
    const firstLine =
      new TextDecoder()
        .decode(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'))
        .split('\r\n')[0] ?? '';
    const values = sliceFields(bundesbankTable, firstLine, 1);
    for (const field of bundesbankTable.fields)
      assert.equal(values[field.name], field.example, field.name);
  });

  it('decodes the original ISO-8859-1 file of 2015 with correct umlauts', () => {
    const withUmlaut = old.records.filter((r) =>
      /[äöüÄÖÜß]/.test(`${r.legal_name ?? ''}${r.address.city ?? ''}`),
    );
    assert.ok(withUmlaut.length > 1_000, `only ${withUmlaut.length} records with umlauts`);
    assert.ok(old.records.some((r) => r.legal_name === 'Bank für Sozialwirtschaft'));
    assert.ok(
      old.records.every(
        (r) => !/[\uFFFD\u0080-\u009F]|Ã/.test(`${r.legal_name ?? ''}${r.address.city ?? ''}`),
      ),
    );
  });

  it('counts the flags, planned deletions and successors of September 2025', () => {
    const flags = new Map<string, number>();
    for (const r of september.records)
      flags.set(
        r.fields.aenderungskennzeichen ?? '',
        (flags.get(r.fields.aenderungskennzeichen ?? '') ?? 0) + 1,
      );
    assert.deepEqual(Object.fromEntries(flags), { U: 13_882, M: 59, A: 15, D: 145 });
    assert.equal(september.records.filter((r) => r.deletion_planned).length, 75);
    assert.equal(september.records.filter((r) => r.successor !== null).length, 34);
    const moved = september.records.find((r) => r.fields.blz === '10060198');
    assert.equal(moved?.successor?.value, '37060193');
  });
});
