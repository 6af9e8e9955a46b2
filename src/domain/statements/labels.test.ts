import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageLabels, languageOf, type LabelConcept } from './labels.js';

const core: readonly LabelConcept[] = [
  'title',
  'holder',
  'account',
  'iban',
  'period',
  'statementDate',
  'openingBalance',
  'closingBalance',
  'transactions',
  'debitColumn',
  'creditColumn',
];

test('every language names every concept the review reads, and period words', () => {
  assert.deepEqual(languageLabels.map((entry) => entry.language).sort(), [
    'de',
    'en',
    'es',
    'fr',
    'it',
    'nl',
    'pl',
  ]);
  for (const entry of languageLabels) {
    for (const concept of core)
      assert.ok((entry.labels[concept] ?? []).length > 0, `${entry.language} ${concept}`);
    assert.ok(entry.periodFrom.length > 0 && entry.periodTo.length > 0, entry.language);
  }
});

test('the language is the one whose labels the text prints most', () => {
  assert.equal(languageOf(['Rekeningafschrift', 'Beginsaldo 1.200,00', 'Eindsaldo 400,00']), 'nl');
  assert.equal(languageOf(['Relevé de compte', 'Ancien solde', 'Nouveau solde']), 'fr');
  assert.equal(languageOf(['Wyciag bankowy', 'Saldo poczatkowe']), 'pl');
  assert.equal(languageOf(['12345']), null);
});

test('twelve months per language, and no month name means two months', () => {
  const seen = new Map<string, number>();
  for (const entry of languageLabels) {
    assert.equal(entry.months.length, 12, entry.language);
    entry.months.forEach((names, index) => {
      for (const name of names) {
        assert.ok([undefined, index].includes(seen.get(name)), `${entry.language} ${name}`);
        seen.set(name, index);
      }
    });
  }
});
