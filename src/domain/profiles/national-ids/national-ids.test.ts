/**
 * Every scheme's generated values are checked by implementations written here from the published
 * algorithms (not the module's code), and those implementations are first checked on published examples.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rowRng, requestKeyOf } from '../../rng.js';
import { deIdnr, esDni, frNir, itCodiceFiscale, nlBsn, plPesel, usSsn } from './index.js';
import type { IdScheme, IdSubject } from './types.js';

const key = requestKeyOf('national-ids', '{}');
const samples = 1_000;

function subjectOf(i: number): IdSubject {
  const year = 1930 + (i % 90);
  const month = 1 + (i % 12);
  const day = 1 + (i % 28);
  return {
    firstName: ['Mario', 'Anna', 'Jo', 'Giuseppe', 'Eva', 'Ugo'][i % 6] as string,
    lastName: ['Rossi', 'Bianchi', 'Li', 'Esposito', 'Oe', 'Fò'][i % 6] as string,
    sex: i % 2 === 0 ? 'male' : 'female',
    dateOfBirth: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  };
}

function each(scheme: IdScheme, check: (value: string, subject: IdSubject) => void): void {
  for (let i = 0; i < samples; i++) {
    const subject = subjectOf(i);
    const value = scheme.generate(subject, rowRng(key, i));
    check(value, subject);
    assert.ok(scheme.validate(value), `${scheme.id} own validator accepts ${value}`);
  }
}

// German IdNr: ISO 7064 MOD 11,10 as the standard states it (pure system, M = 11, base 10).
function idnrCheckDigit(ten: string): number {
  let p = 10;
  for (const c of ten) {
    const s = (Number(c) + p) % 10 || 10;
    p = (2 * s) % 11;
  }
  return (11 - p) % 10;
}
function idnrValid(value: string): boolean {
  if (!/^[1-9]\d{10}$/.test(value)) return false;
  const counts = [...value.slice(0, 10)].reduce(
    (m, c) => m.set(c, (m.get(c) ?? 0) + 1),
    new Map<string, number>(),
  );
  const multi = [...counts.values()].filter((n) => n > 1);
  return (
    multi.length === 1 &&
    (multi[0] === 2 || multi[0] === 3) &&
    idnrCheckDigit(value.slice(0, 10)) === Number(value[10])
  );
}

function nirValid(value: string): boolean {
  return (
    /^[12]\d{14}$/.test(value) &&
    97 - Number(BigInt(value.slice(0, 13)) % 97n) === Number(value.slice(13))
  );
}

function dniValid(value: string): boolean {
  return (
    /^\d{8}[A-Z]$/.test(value) &&
    'TRWAGMYFPDXBNJZSQVHLCKE'[Number(value.slice(0, 8)) % 23] === value[8]
  );
}

// Codice fiscale check character: the odd-position table as published, keyed by character.
const cfOdd: Record<string, number> = {};
'0123456789'.split('').forEach((c, i) => {
  cfOdd[c] = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21][i] as number;
});
'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').forEach((c, i) => {
  cfOdd[c] = [
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
  ][i] as number;
});
function cfEven(c: string): number {
  return /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
}
function cfValid(value: string): boolean {
  if (!/^[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]$/.test(value)) return false;
  let sum = 0;
  for (let pos = 1; pos <= 15; pos++)
    sum +=
      pos % 2 === 1
        ? (cfOdd[value[pos - 1] as string] as number)
        : cfEven(value[pos - 1] as string);
  return String.fromCharCode(65 + (sum % 26)) === value[15];
}

function bsnValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = d.slice(0, 8).reduce((acc, digit, i) => acc + digit * (9 - i), 0) - (d[8] as number);
  return sum % 11 === 0;
}

function peselValid(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = w.reduce((acc, weight, i) => acc + weight * Number(value[i]), 0);
  return (10 - (sum % 10)) % 10 === Number(value[10]);
}

describe('independent checks agree with published examples', () => {
  it('German IdNr 86095742719 (BZSt sample) is valid, one changed digit is not', () => {
    assert.ok(idnrValid('86095742719'));
    assert.ok(!idnrValid('86095742718'));
    assert.ok(deIdnr.validate('86095742719'));
  });
  it('French NIR 255081416802538 is valid', () => {
    assert.ok(nirValid('255081416802538'));
    assert.ok(frNir.validate('255081416802538'));
  });
  it('Spanish DNI 12345678Z is valid', () => {
    assert.ok(dniValid('12345678Z'));
    assert.ok(esDni.validate('12345678Z'));
    assert.ok(esDni.validate('X1234567L'), 'NIE X1234567L');
  });
  it('codice fiscale RSSMRA85T10A562S (Mario Rossi) is valid', () => {
    assert.ok(cfValid('RSSMRA85T10A562S'));
    assert.ok(itCodiceFiscale.validate('RSSMRA85T10A562S'));
    assert.ok(
      itCodiceFiscale.agrees('RSSMRA85T10A562S', {
        firstName: 'Mario',
        lastName: 'Rossi',
        sex: 'male',
        dateOfBirth: '1985-12-10',
      }),
    );
  });
  it('BSN 111222333 passes the eleven-test, 111222334 does not', () => {
    assert.ok(bsnValid('111222333'));
    assert.ok(!bsnValid('111222334'));
    assert.ok(nlBsn.validate('111222333'));
  });
  it('PESEL 44051401359 is valid', () => {
    assert.ok(peselValid('44051401359'));
    assert.ok(plPesel.validate('44051401359'));
  });
});

describe('generated identifiers pass the independent checks (1,000 each)', () => {
  it('German IdNr', () => each(deIdnr, (value) => assert.ok(idnrValid(value), value)));
  it('French NIR encodes sex, year and month of birth', () =>
    each(frNir, (value, subject) => {
      assert.ok(nirValid(value), value);
      assert.equal(value[0], subject.sex === 'male' ? '1' : '2');
      assert.equal(
        value.slice(1, 5),
        subject.dateOfBirth.slice(2, 4) + subject.dateOfBirth.slice(5, 7),
      );
    }));
  it('Spanish DNI', () => each(esDni, (value) => assert.ok(dniValid(value), value)));
  it('Italian codice fiscale encodes birth date and sex', () =>
    each(itCodiceFiscale, (value, subject) => {
      assert.ok(cfValid(value), value);
      const day = Number(value.slice(9, 11));
      assert.equal(
        subject.sex === 'female' ? day - 40 : day,
        Number(subject.dateOfBirth.slice(8, 10)),
      );
      assert.equal(value.slice(6, 8), subject.dateOfBirth.slice(2, 4));
    }));
  it('Dutch BSN', () => each(nlBsn, (value) => assert.ok(bsnValid(value), value)));
  it('Polish PESEL encodes birth date and sex', () =>
    each(plPesel, (value, subject) => {
      assert.ok(peselValid(value), value);
      const year = Number(subject.dateOfBirth.slice(0, 4));
      const month = Number(value.slice(2, 4)) - (year >= 2000 ? 20 : 0);
      assert.equal(month, Number(subject.dateOfBirth.slice(5, 7)));
      assert.equal(Number(value[9]) % 2, subject.sex === 'male' ? 1 : 0);
    }));
  it('US SSN: area 900-999 (never issued by SSA) and a group that is no ITIN group', () =>
    each(usSsn, (value) => {
      const [area, group, serial] = value.split('-').map(Number) as [number, number, number];
      assert.ok(area >= 900 && area <= 999, value);
      assert.ok(
        group >= 1 && group <= 49,
        `group ${group} is outside the ITIN groups 50-65, 70-88, 90-92, 94-99`,
      );
      assert.ok(serial >= 1);
    }));
});
