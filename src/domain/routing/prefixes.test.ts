import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRoutingNumber } from './aba.js';
import {
  assignedPrefixes,
  describePrefix,
  federalReserveBankRoutingNumbers,
  federalReserveDistrictCities,
  unassignedPrefixes,
} from './prefixes.js';
import { readShared, skipWithoutShared } from '../../../test/helpers/shared.js';

describe('prefix table', () => {
  it('has 37 assigned and 63 unassigned two-digit values, covering 00-99 once', () => {
    assert.equal(assignedPrefixes.length, 1 + 12 + 12 + 12 + 1);
    assert.equal(unassignedPrefixes.length, 100 - assignedPrefixes.length);
    assert.equal(new Set([...assignedPrefixes, ...unassignedPrefixes]).size, 100);
  });

  it("00 is the U.S. Government and 80 traveler's cheques, with no district", () => {
    assert.deepEqual(
      [describePrefix('00')?.kind, describePrefix('00')?.district, describePrefix('00')?.meaning],
      ['us_government', null, 'U.S. Government'],
    );
    assert.equal(describePrefix('80')?.kind, 'travelers_cheques');
    assert.equal(describePrefix('80')?.district, null);
  });

  it('01-12, 21-32 and 61-72 name district = prefix, prefix - 20, prefix - 60 and its Fed city', () => {
    const ranges = [
      { offset: 0, kind: 'federal_reserve_district' },
      { offset: 20, kind: 'thrift_institution' },
      { offset: 60, kind: 'electronic_transaction_identifier' },
    ] as const;
    for (const { offset, kind } of ranges) {
      for (let district = 1; district <= 12; district++) {
        const value = String(district + offset).padStart(2, '0');
        const prefix = describePrefix(value);
        assert.equal(prefix?.kind, kind, value);
        assert.equal(prefix?.district, district, value);
        assert.equal(prefix?.reserve_bank_city, federalReserveDistrictCities[district - 1], value);
        assert.ok(prefix?.meaning.includes(prefix.reserve_bank_city ?? '?'), prefix?.meaning);
      }
    }
  });

  it('names the twelve Reserve Bank cities in district order', () => {
    assert.deepEqual(federalReserveDistrictCities, [
      'Boston',
      'New York',
      'Philadelphia',
      'Cleveland',
      'Richmond',
      'Atlanta',
      'Chicago',
      'St. Louis',
      'Minneapolis',
      'Kansas City',
      'Dallas',
      'San Francisco',
    ]);
  });

  it('says what the ETI and thrift ranges are', () => {
    assert.match(
      describePrefix('65')?.meaning ?? '',
      /Electronic Transaction Identifier \(ETI\).*Richmond/,
    );
    assert.match(describePrefix('32')?.meaning ?? '', /Thrift.*San Francisco/);
    assert.match(describePrefix('50')?.meaning ?? '', /Not an ABA routing prefix/);
  });

  it('returns undefined for anything but two ASCII digits', () => {
    for (const value of ['', '1', '123', 'A1', '١٢'])
      assert.equal(describePrefix(value), undefined, value);
  });
});

describe("Federal Reserve Banks' own routing numbers", () => {
  it('are twelve valid numbers, one per district, in district order', () => {
    assert.equal(federalReserveBankRoutingNumbers.length, 12);
    federalReserveBankRoutingNumbers.forEach((number, index) => {
      const verdict = checkRoutingNumber(number);
      assert.equal(verdict.error, null, number);
      assert.equal(verdict.prefix?.district, index + 1, number);
    });
  });

  it(
    'each is a Federal Reserve Bank record (record type 0) in the 2018 FedACH directory',
    skipWithoutShared,
    () => {
      const text = readShared('fedach/2018-12-04/FedACHdir.txt').toString('latin1');
      // FedACHdir.txt: routing number 1-9, record type code 20 (0 = the institution is a Federal Reserve Bank).
      const fedRecords = new Set(
        text
          .split(/\r?\n/)
          .filter((line) => line[19] === '0')
          .map((line) => line.slice(0, 9)),
      );
      for (const number of federalReserveBankRoutingNumbers)
        assert.ok(fedRecords.has(number), number);
    },
  );
});
