import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { requestKeyOf, rowRng } from '../../../rng.js';
import { checkGermanAccount, generateGermanAccount, germanMethods } from './index.js';
import {
  sharedMissing,
  sharedPath,
  skipWithoutShared,
} from '../../../../../test/helpers/shared.js';

/**
 * Integration with the real Bundesbank bank-code file (test data in ../shared, never copied
 * into the repository): every check method the file uses must be implemented, and accounts
 * generated for a real main record of each method must pass.
 */
/** The current release (UTF-8) and a 2015 release in its original ISO-8859-1, which uses more methods. */
const blzFiles = [
  {
    release: '2025-09-08',
    file: sharedPath('bundesbank-blz/2025-09-08/bundesbank.txt'),
    encoding: 'utf8',
  },
  {
    release: '2015-09-07',
    file: sharedPath('bundesbank-blz/2015-09-07-original-iso-8859-1/bundesbank.txt'),
    encoding: 'latin1',
  },
] as const;

/** Fixed-width record layout (1-based positions from the Bundesbank file description). */
const recordLength = 168;
const blzField = [0, 8] as const; // positions 1-8
const merkmalIndex = 8; // position 9: '1' = bank-code-holding main record
const methodField = [150, 152] as const; // positions 151-152
/** Accounts generated per method for its first main record. */
const accountsPerMethod = 200;

interface BlzRecord {
  readonly bankCode: string;
  readonly mainRecord: boolean;
  readonly method: string;
}

function readRecords(file: string, encoding: BufferEncoding): BlzRecord[] {
  const lines = readFileSync(file, encoding)
    .split(/\r?\n/)
    .filter((line) => line.length > 0);
  return lines.map((line) => {
    assert.equal([...line].length, recordLength, 'records are 168 characters after decoding');
    const chars = [...line];
    return {
      bankCode: chars.slice(...blzField).join(''),
      mainRecord: chars[merkmalIndex] === '1',
      method: chars.slice(...methodField).join(''),
    };
  });
}

for (const { release, file, encoding } of blzFiles) {
  describe(`Bundesbank bank-code file ${release}`, skipWithoutShared, () => {
    const records = sharedMissing ? [] : readRecords(file, encoding);
    const usedMethods = [...new Set(records.map((record) => record.method))].sort();

    it('every check method the file uses is implemented', () => {
      assert.ok(usedMethods.length > 50, `only ${usedMethods.length} methods read`);
      assert.deepEqual(
        usedMethods.filter((method) => !germanMethods.includes(method)),
        [],
      );
    });

    it(`${accountsPerMethod} generated accounts for the first main record of each method pass`, (t) => {
      let checked = 0;
      for (const method of usedMethods) {
        const record = records.find(
          (candidate) => candidate.method === method && candidate.mainRecord,
        );
        assert.ok(record !== undefined, `method ${method} has no main record`);
        const key = requestKeyOf('de-bundesbank-file-test', record.bankCode);
        for (let row = 0; row < accountsPerMethod; row++) {
          const account = generateGermanAccount(method, record.bankCode, rowRng(key, row));
          assert.ok(account !== null, `method ${method} generated nothing`);
          assert.equal(
            checkGermanAccount(method, record.bankCode, account),
            'passed',
            `${method} ${record.bankCode} ${account}`,
          );
          checked++;
        }
      }
      t.diagnostic(
        `${usedMethods.length} methods in the file, ${checked} generated accounts checked`,
      );
    });
  });
}
