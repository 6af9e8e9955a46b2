import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isValidIBAN } from 'ibantools';
import { closeOcr } from '../../../src/statements/extract/image.js';
import { expectations } from './generate.js';
import { analyse, corpusEntries, extractionOf, problemsOf } from './run.js';

const entries = corpusEntries();

after(() => closeOcr());

test('the corpus: 40+ statements, 8+ layouts, every language and tampering, expectations as the model gives them', async () => {
  assert.ok(entries.length >= 40, `${entries.length} statements`);
  assert.ok(new Set(entries.map((entry) => entry.layout)).size >= 8);
  assert.deepEqual([...new Set(entries.map((entry) => entry.language))].sort(), [
    'de',
    'en',
    'es',
    'fr',
    'it',
    'nl',
    'pl',
  ]);
  for (const variant of [
    'clean',
    'arithmetic',
    'outside',
    'edited',
    'incremental',
    'bad_iban',
    'bad_routing',
    'multipage',
    'carried',
  ])
    assert.ok(
      entries.some((entry) => entry.variant === variant),
      variant,
    );
  assert.ok(entries.some((entry) => entry.kind === 'png'));
  // The committed JSON files are what the generator's model says (regenerate with generate.ts after a change).
  assert.deepEqual(
    entries,
    [...(await expectations())].sort((a, b) => (a.file < b.file ? -1 : 1)),
  );
  for (const entry of entries)
    if (entry.fields.iban !== null)
      assert.equal(isValidIBAN(entry.fields.iban), entry.variant !== 'bad_iban', entry.file);
});

for (const entry of entries) {
  test(`corpus ${entry.file}: ${entry.clean ? 'no high-severity finding' : entry.codes.join(' + ')}`, async () => {
    const { report } = await analyse(entry);
    assert.deepEqual(problemsOf(entry, report), []);
    if (entry.kind === 'png') return; // OCR: findings only; extraction rates are the bench's
    const fields = report.extracted_fields as Record<string, unknown>;
    assert.deepEqual(extractionOf(entry, report), {
      holder: true,
      account: true,
      period: true,
      opening: true,
      closing: true,
    });
    assert.equal(fields.transaction_count, entry.fields.transaction_count);
    assert.equal(fields.routing_number, entry.fields.routing_number);
    const arithmetic = report.checks.find((check) => check.check === 'balance_arithmetic');
    assert.equal(
      arithmetic?.status,
      entry.variant === 'arithmetic' || entry.variant === 'edited' ? 'failed' : 'passed',
    );
    if (entry.fields.routing_number !== null) {
      const routing = report.domestic_account_checks.find(
        (check) => check.type === 'routing_number',
      );
      const error = {
        bad_routing: 'invalid_checksum',
        bad_routing_prefix: 'invalid_prefix',
      } as const;
      assert.equal(
        routing?.error,
        entry.variant === 'bad_routing' || entry.variant === 'bad_routing_prefix'
          ? error[entry.variant]
          : null,
      );
    }
    for (const check of report.checks)
      if (check.status === 'not_checked') assert.ok((check.reason ?? '').length > 0, check.check);
  });
}
