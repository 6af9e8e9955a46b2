import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { isValidAbaRoutingNumber } from './fed-directory.js';
import { fedachTable, isoFromMonthDayYear, parseFedach } from './fedach.js';
import { fedwireTable, parseFedwire } from './fedwire.js';

const achLines = new TextDecoder()
  .decode(readFixture('fedach-synthetic.txt'))
  .split('\r\n')
  .filter((l) => l !== '');

function text(lines: string[]): Uint8Array {
  return new TextEncoder().encode(lines.map((l) => `${l}\r\n`).join(''));
}

function rejects(parse: () => unknown, pattern: RegExp): void {
  assert.throws(
    parse,
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('routing numbers and dates', () => {
  it('checks ABA check digits (3-7-1 weights)', () => {
    assert.equal(isValidAbaRoutingNumber('990000013'), true);
    assert.equal(isValidAbaRoutingNumber('990000014'), false);
    assert.equal(isValidAbaRoutingNumber('99000001'), false);
  });

  it('reads MMDDYY change dates around the century pivot', () => {
    assert.equal(isoFromMonthDayYear('122415'), '2015-12-24');
    assert.equal(isoFromMonthDayYear('012998'), '1998-01-29');
    assert.equal(isoFromMonthDayYear('133115'), null);
  });
});

describe('parseFedach on the synthetic fixture', () => {
  const snapshot = parseFedach(readFixture('fedach-synthetic.txt'));

  it('keys by routing number and dates the snapshot by the latest change date', () => {
    assert.deepEqual(
      snapshot.records.map((r) => r.record_key),
      ['990000013', '990000026'],
    );
    assert.equal(snapshot.snapshot_date, '2024-02-01');
  });

  it('publishes a successor only for record type 2 with a new routing number', () => {
    const [main, moved] = snapshot.records;
    assert.equal(main?.successor, null);
    assert.deepEqual(moved?.successor, {
      scheme: 'us_aba',
      value: '990000013',
      effective_at: null,
    });
    assert.deepEqual(main?.address, {
      street: '1 EXAMPLE ST',
      postal_code: '10001-0001',
      city: 'TESTVILLE',
      region: 'NY',
    });
    assert.equal(moved?.address.postal_code, '10002');
    assert.equal('filler' in (main?.fields ?? {}), false);
  });

  it('rejects malformed lines with their line number', () => {
    rejects(
      () => parseFedach(text([achLines[0] ?? '', (achLines[1] ?? '').slice(0, 100)])),
      /^FedACH directory line 2: truncated line: 100 characters, expected 155$/,
    );
    rejects(
      () => parseFedach(text([achLines[0] ?? '', achLines[0] ?? ''])),
      /line 2: duplicate key 990000013/,
    );
    rejects(
      () => parseFedach(text([`990000014${(achLines[0] ?? '').slice(9)}`])),
      /line 1: routing number "990000014" fails the ABA check digit/,
    );
    rejects(
      () => parseFedach(text([(achLines[0] ?? '').replace('TESTVILLE', 'TESTVILLÉ')])),
      /line 1: non-ASCII character/,
    );
    rejects(() => parseFedach(new Uint8Array()), /line 1: no records/);
  });

  it('rejects malformed JSON with a line or record number', () => {
    rejects(
      () =>
        parseFedach(
          new TextEncoder().encode('{\n"fedACHParticipants": {\n  "fedACHParticipants": [,]\n}}'),
        ),
      /^FedACH directory line 3: invalid JSON/,
    );
    rejects(
      () =>
        parseFedach(
          new TextEncoder().encode(
            '{"fedACHParticipants":{"fedACHParticipants":[{"routingNumber":"990000013"}]}}',
          ),
        ),
      /record 1: field officeCode is missing/,
    );
    rejects(
      () => parseFedach(new TextEncoder().encode('{"participants":[]}')),
      /line 1: missing "fedACHParticipants" list/,
    );
  });
});

describe('parseFedwire on the synthetic fixture', () => {
  it('maps telegraphic name, state and city, and dates by the latest revision', () => {
    const snapshot = parseFedwire(readFixture('fedwire-synthetic.txt'));
    assert.deepEqual(
      snapshot.records.map((r) => [r.record_key, r.short_name, r.address.region]),
      [
        ['990000013', 'SYNTH TEST', 'NY'],
        ['990000039', 'SYNTH TEST 2', 'CA'],
      ],
    );
    assert.equal(snapshot.records[1]?.fields.fundsSettlementOnlyStatus, 'S');
    assert.equal(snapshot.snapshot_date, '2024-01-02');
  });
});

describe('the Federal Reserve directories on the real files', { skip: needsShared }, () => {
  it('reads the README row counts and as-of dates', () => {
    const counts = [
      [parseFedach(readShared('fedach/2016-02-03/FedACHdir.txt')), 19_248, '2016-02-03'],
      [parseFedach(readShared('fedach/2018-12-04/FedACHdir.txt')), 18_198, '2018-12-04'],
      [parseFedwire(readShared('fedwire/2016-02-04/fpddir.txt')), 8_327, '2016-02-04'],
      [parseFedwire(readShared('fedwire/2018-12-03/fpddir.txt')), 7_693, '2018-12-03'],
    ] as const;
    for (const [snapshot, rows, date] of counts) {
      assert.equal(snapshot.row_count, rows);
      assert.equal(snapshot.snapshot_date, date);
    }
  });

  it('reads the official JSON samples into the same fields as the text layout', () => {
    const ach = parseFedach(readShared('fedach/official-json-sample/fedachdir.json'));
    const wire = parseFedwire(readShared('fedwire/official-json-sample/fpddir.json'));
    // The samples hold 6 and 10 participants; half the FedACH ones spell the status field 'statusCode'.
    assert.deepEqual([ach.row_count, wire.row_count], [6, 10]);
    const achNames = fedachTable.fields.map((f) => f.name).filter((n) => n !== 'filler');
    assert.deepEqual(Object.keys(ach.records[3]?.fields ?? {}), achNames);
    assert.deepEqual(
      Object.keys(wire.records[0]?.fields ?? {}),
      fedwireTable.fields.map((f) => f.name),
    );
    const fromText = parseFedach(readShared('fedach/2018-12-04/FedACHdir.txt')).records.find(
      (r) => r.record_key === '011000015',
    );
    assert.deepEqual(ach.records[0]?.fields, fromText?.fields);
  });

  it('the field table examples match the JSON sample record', () => {
    const wire =
      parseFedwire(readShared('fedwire/official-json-sample/fpddir.json')).records[0]?.fields ?? {};
    for (const field of fedwireTable.fields)
      assert.equal(wire[field.name], field.example, field.name);
    const ach =
      parseFedach(readShared('fedach/official-json-sample/fedachdir.json')).records[0]?.fields ??
      {};
    for (const field of fedachTable.fields.filter((f) => f.name !== 'filler'))
      assert.equal(ach[field.name], field.example, field.name);
  });
});
