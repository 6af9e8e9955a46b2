// Every bank code generation may draw can be generated: for each country, each of the registry's generation banks
// gives an IBAN that validates with that bank code in place. The embedded registry's Spanish iban-to-bic data keys
// three BICs by tax ids (e.g. "A79192258"), which no Spanish IBAN can carry; a row drawn on one of them used to fail
// the whole request (one in three unseeded 75-row Spanish datasets).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryFormats, generateIban, validateIban } from '../../src/domain/iban/index.js';
import { rowRng } from '../../src/domain/rng.js';
import { loadEmbeddedDefault } from '../../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { requestKeyFor } from '../../src/service/request-key.js';

test('every generation bank of every country generates a valid IBAN carrying its code', () => {
  const bank = createMemoryDirectory(loadEmbeddedDefault());
  const key = requestKeyFor('generation-bank-codes', 'fixed', {});
  let generated = 0;
  for (const format of countryFormats) {
    for (const candidate of bank.generationBanksOf(format.code)) {
      const { iban } = generateIban(
        format,
        rowRng(key, generated),
        { bankCode: candidate.bankCode },
        bank,
      );
      const verdict = validateIban(iban, bank);
      assert.equal(verdict.valid, true, `${format.code} ${candidate.bankCode}: ${iban}`);
      generated++;
    }
  }
  assert.ok(generated > 10_000, `${generated} banks checked`);
  const spanish = bank.generationBanksOf('ES').map((info) => info.bankCode);
  assert.ok(spanish.length > 500);
  assert.ok(!spanish.includes('A79192258'), 'a tax id is not a Spanish bank code');
});
