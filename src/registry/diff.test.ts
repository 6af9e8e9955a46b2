import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.js';
import { needsShared, readShared } from '../../test/fixtures/registry/paths.js';
import { changeCountsByField, diffSnapshots } from './diff.js';
import { makeRecord } from './importers/common.js';
import { bundesbankMainBlzKey, parseBundesbank } from './importers/bundesbank.js';
import { parseFedach } from './importers/fedach.js';
import { parseFedwire } from './importers/fedwire.js';
import { parseNbb } from './importers/nbb.js';
import { parseOenb } from './importers/oenb.js';
import { parseSix } from './importers/six.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';

/** SYNTHETIC snapshots for the diff logic itself. */
function record(key: string, fields: Record<string, string>): RegistryRecord {
  return makeRecord({
    source_id: 'synthetic',
    record_key: key,
    record_type: 'bank',
    country_code: 'DE',
    fields,
  });
}

function snapshot(
  records: readonly RegistryRecord[],
  ignored: string[] = [],
  sourceId = 'synthetic',
): ParsedSnapshot {
  const source = {
    source_id: sourceId,
    publisher: 'test',
    title: 'synthetic',
    license: 'none',
    version: null,
  };
  return {
    source_id: sourceId,
    source,
    snapshot_date: null,
    records,
    row_count: records.length,
    ignored_fields: ignored,
  };
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('diffSnapshots', () => {
  const before = snapshot(
    [
      record('1', { name: 'A', seen: '20240101' }),
      record('2', { name: 'B', seen: '20240101' }),
      record('3', { name: 'C', seen: '20240101' }),
    ],
    ['seen'],
  );
  const after = snapshot(
    [
      record('2', { name: 'B2', seen: '20240201' }),
      record('3', { name: 'C', seen: '20240201' }),
      record('4', { name: 'D', seen: '20240201', city: 'X' }),
    ],
    ['seen'],
  );

  it('finds added, removed and modified records with per-field before/after', () => {
    const diff = diffSnapshots(before, after);
    assert.deepEqual(
      diff.added.map((r) => r.record_key),
      ['4'],
    );
    assert.deepEqual(
      diff.removed.map((r) => r.record_key),
      ['1'],
    );
    assert.deepEqual(
      diff.modified.map((m) => [m.key, m.changes]),
      [['2', [{ field: 'name', before: 'B', after: 'B2' }]]],
    );
  });

  it('treats a field that appears or disappears as a change from or to null', () => {
    const diff = diffSnapshots(
      snapshot([record('1', { a: 'x' })]),
      snapshot([record('1', { b: 'y' })]),
    );
    assert.deepEqual(diff.modified[0]?.changes, [
      { field: 'a', before: 'x', after: null },
      { field: 'b', before: null, after: 'y' },
    ]);
  });

  it('counts ignored fields as no change', () => {
    const diff = diffSnapshots(before, after);
    assert.ok(diff.modified.every((m) => m.changes.every((c) => c.field !== 'seen')));
    assert.equal(
      diffSnapshots(snapshot(before.records), snapshot(after.records)).modified.length,
      2,
    );
  });

  it('leaves records out of a view whose key function returns null, and rejects duplicate keys', () => {
    const onlyOdd = diffSnapshots(before, after, (r) =>
      Number(r.record_key) % 2 === 1 ? r.record_key : null,
    );
    assert.deepEqual(
      [onlyOdd.added.length, onlyOdd.removed.length, onlyOdd.modified.length],
      [0, 1, 0],
    );
    assert.throws(
      () => diffSnapshots(before, after, () => 'same'),
      (e: unknown) => e instanceof AppError && /two records with diff key same/.test(e.message),
    );
  });

  it('refuses to diff two different sources', () => {
    assert.throws(() => diffSnapshots(before, snapshot([], [], 'other')), AppError);
  });
});

describe('snapshot diffs reproduce the README on the real files', { skip: needsShared }, () => {
  it('Bundesbank 2025-06-09 -> 2025-09-08 by main BLZ', () => {
    const june = parseBundesbank(readShared('bundesbank-blz/2025-06-09/bundesbank.txt'), {
      snapshotDate: '2025-06-09',
    });
    const september = parseBundesbank(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'), {
      snapshotDate: '2025-09-08',
    });
    const diff = diffSnapshots(june, september, bundesbankMainBlzKey);
    assert.deepEqual(sorted(diff.added.map((r) => r.fields.blz ?? '')), ['21050055', '86021000']);
    assert.deepEqual(sorted(diff.removed.map((r) => r.fields.blz ?? '')), [
      '50961312',
      '51230600',
      '70012400',
    ]);
    assert.ok(
      diff.removed.every((r) => r.fields.aenderungskennzeichen === 'D'),
      'all removed BLZ were flagged D in June',
    );
    assert.equal(diff.modified.length, 38);
    assert.deepEqual(Object.fromEntries(changeCountsByField(diff)), {
      name: 14,
      kurz: 15,
      ort: 17,
      plz: 12,
      bic: 1,
    });
    const berlin = diff.modified
      .find((m) => m.key === '10050000')
      ?.changes.find((c) => c.field === 'name');
    assert.deepEqual(berlin, {
      field: 'name',
      before: 'Landesbank Berlin - Berliner Sparkasse',
      after: 'BSK 1818 - Berliner Sparkasse',
    });
  });

  it('Bundesbank by Datensatznummer: the A and D flags are exactly the added and removed records', () => {
    const june = parseBundesbank(readShared('bundesbank-blz/2025-06-09/bundesbank.txt'));
    const september = parseBundesbank(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'));
    const diff = diffSnapshots(june, september);
    assert.deepEqual(
      sorted(diff.added.map((r) => r.record_key)),
      sorted(
        september.records
          .filter((r) => r.fields.aenderungskennzeichen === 'A')
          .map((r) => r.record_key),
      ),
    );
    assert.deepEqual(
      sorted(diff.removed.map((r) => r.record_key)),
      sorted(
        june.records.filter((r) => r.fields.aenderungskennzeichen === 'D').map((r) => r.record_key),
      ),
    );
    assert.deepEqual([diff.added.length, diff.removed.length], [15, 84]);
  });

  it('OeNB 15.09 -> 22.09.2025: 17 changed rows, the 36316 merger moves LEI and BIC', () => {
    const diff = diffSnapshots(
      parseOenb(readShared('oenb-sepa-verzeichnis/2025-09-15/at.csv')),
      parseOenb(readShared('oenb-sepa-verzeichnis/2025-09-22/at.csv')),
    );
    assert.deepEqual([diff.added.length, diff.removed.length, diff.modified.length], [0, 0, 17]);
    const changes = diff.modified.find((m) => m.key === '36316')?.changes ?? [];
    assert.deepEqual(
      changes.find((c) => c.field === 'LEI'),
      { field: 'LEI', before: '5299001HH0JTA44PAA35', after: '5299007ST2V666DOLE22' },
    );
    assert.deepEqual(
      changes.find((c) => c.field === 'SWIFT-Code'),
      { field: 'SWIFT-Code', before: 'RZTIAT22316', after: 'RZTIAT22268' },
    );
    for (const blz of ['32367', '33106', '36291', '36316']) {
      const fields = (diff.modified.find((m) => m.key === blz)?.changes ?? []).map((c) => c.field);
      for (const field of ['Identnummer', 'Firmenbuchnummer', 'Bankenname', 'SWIFT-Code', 'LEI'])
        assert.ok(fields.includes(field), `${blz} ${field}`);
    }
  });

  it('SIX 2025-09-29 -> 2025-10-06 ignoring "Gültig seit"', () => {
    const diff = diffSnapshots(
      parseSix(readShared('six-bankenstamm/2025-09-29/ch.xls')),
      parseSix(readShared('six-bankenstamm/2025-10-06/ch.xls')),
    );
    assert.deepEqual(diff.added, []);
    assert.deepEqual(sorted(diff.removed.map((r) => r.fields.IID ?? '')), ['30148', '8528']);
    assert.ok(diff.removed.every((r) => r.short_name === 'PB IHAG AG'));
    const changed = Object.fromEntries(
      diff.modified.map((m) => [m.after.fields.IID, sorted(m.changes.map((c) => c.field))]),
    );
    assert.deepEqual(changed, {
      '30121': ['SIC'],
      '315': ['SIC'],
      '8349': ['SIC'],
      '83050': ['Domizil', 'PLZ'],
      '83058': ['Kurzbez.', 'Name Bank/Institut'],
    });
  });

  it('NBB 2019-07-03 -> 2025-08-04 by From-To', () => {
    const diff = diffSnapshots(
      parseNbb(readShared('nbb-bank-codes/2019-07-03/nbb.xlsx')),
      parseNbb(readShared('nbb-bank-codes/2025-08-04/nbb.xlsx')),
    );
    assert.deepEqual([diff.added.length, diff.removed.length, diff.modified.length], [27, 35, 45]);
  });

  it('FedACH 2016 -> 2018 by routing number', () => {
    const diff = diffSnapshots(
      parseFedach(readShared('fedach/2016-02-03/FedACHdir.txt')),
      parseFedach(readShared('fedach/2018-12-04/FedACHdir.txt')),
    );
    assert.deepEqual(
      [diff.added.length, diff.removed.length, diff.modified.length],
      [104, 1_154, 3_397],
    );
    const counts = changeCountsByField(diff);
    assert.deepEqual(
      ['customerName', 'customerAddress', 'newRoutingNumber', 'recordTypeCode'].map((f) =>
        counts.get(f),
      ),
      [2_468, 2_183, 615, 568],
    );
  });

  it('Fedwire 2016 -> 2018 by routing number', () => {
    const diff = diffSnapshots(
      parseFedwire(readShared('fedwire/2016-02-04/fpddir.txt')),
      parseFedwire(readShared('fedwire/2018-12-03/fpddir.txt')),
    );
    assert.deepEqual(
      [diff.added.length, diff.removed.length, diff.modified.length],
      [202, 836, 1_231],
    );
  });
});
