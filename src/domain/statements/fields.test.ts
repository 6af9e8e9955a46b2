import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextLine } from './document.js';
import { readFields } from './fields.js';

const lines = (texts: readonly string[]): TextLine[] =>
  texts.map((text) => ({ page: 1, text, spans: [{ text, font: 'f1' }] }));

test('an IBAN is cut at its country length, so a BIC after it on the line is not swallowed', () => {
  const fields = readFields(
    lines(['IBAN: ES91 2100 0418 4502 0005 1332 BIC CAIXESBB', 'IBAN NL91ABNA0417164300']),
    100,
  );
  assert.deepEqual(
    fields.ibans.map((found) => found.value),
    ['ES9121000418450200051332', 'NL91ABNA0417164300'],
  );
  assert.equal(fields.bic?.value, 'CAIXESBB');
});

test('labels, period, balances and transaction rows', () => {
  const fields = readFields(
    lines([
      'Account holder: Erika Beispiel',
      'Bank: Example',
      'Statement period: 2025-01-01 to 2025-01-31',
      'Currency: EUR',
      'Opening balance 100.00',
      '2025-01-02 Coffee -3.50 96.50',
      '2025-01-03 Refund 3.50',
      'Closing balance 100.00',
    ]),
    100,
  );
  assert.equal(fields.accountHolder?.value, 'Erika Beispiel');
  assert.equal(fields.bankName?.value, 'Example');
  assert.deepEqual(fields.period?.value, { start: '2025-01-01', end: '2025-01-31' });
  assert.equal(fields.currency?.value, 'EUR');
  assert.equal(fields.openingBalance?.value, 10_000);
  assert.equal(fields.closingBalance?.value, 10_000);
  assert.deepEqual(
    fields.transactions.map((row) => [row.date, row.description, row.amount, row.balance]),
    [
      ['2025-01-02', 'Coffee', -350, 9_650],
      ['2025-01-03', 'Refund', 350, null],
    ],
  );
});

test('US statements read slashed dates month first and find routing and account numbers', () => {
  const fields = readFields(
    lines([
      'Routing number: 800000006',
      'Account number: 0001 2345 6789',
      'Statement period: 05/01/2025 - 05/31/2025',
    ]),
    100,
  );
  assert.equal(fields.monthFirst, true);
  assert.equal(fields.routingNumber?.value, '800000006');
  assert.equal(fields.accountNumber?.value, '000123456789');
  assert.deepEqual(fields.period?.value, { start: '2025-05-01', end: '2025-05-31' });
});

test('the transaction bound holds', () => {
  const many = lines(
    Array.from(
      { length: 50 },
      (_, index) => `2025-01-${String((index % 28) + 1).padStart(2, '0')} Row ${index} 1.00`,
    ),
  );
  assert.equal(readFields(many, 10).transactions.length, 10);
});
