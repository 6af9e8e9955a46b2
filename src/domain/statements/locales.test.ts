import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextLine } from './document.js';
import { readFields } from './fields.js';
import { amountsIn, commaDecimal, detectConvention, dotDecimal, parseAmount } from './values.js';

const lines = (texts: readonly string[]): TextLine[] =>
  texts.map((text) => ({ page: 1, text, spans: [{ text, font: 'f1' }] }));

test('a date before an amount is never read as the amount', () => {
  const fields = readFields(
    lines([
      'Alter Kontostand / Opening balance 01.03.2024 1.842,17 EUR',
      '05.03.2024 05.03.2024 Miete -950,00 892,17',
      'Neuer Kontostand 31.03.2024 892,17 EUR',
    ]),
    100,
  );
  assert.equal(fields.openingBalance?.value, 184_217);
  assert.equal(fields.closingBalance?.value, 89_217);
  assert.deepEqual(
    fields.transactions.map((row) => [row.date, row.description, row.amount, row.balance]),
    [['2024-03-05', 'Miete', -95_000, 89_217]],
  );
});

test('number conventions: grouping with dots, spaces (plain, no-break, narrow), commas and apostrophes', () => {
  assert.equal(parseAmount('1.842,17'), 184_217);
  assert.equal(parseAmount('1 842,17'), 184_217);
  assert.equal(parseAmount('1\u00A0842,17'), 184_217);
  assert.equal(parseAmount('1\u202F842,17'), 184_217);
  assert.equal(parseAmount('1,842.17'), 184_217);
  assert.equal(parseAmount("1'842.17"), 184_217);
  assert.equal(parseAmount('1’842.17'), 184_217);
  assert.equal(parseAmount('1,842.17 CR'), 184_217);
  assert.equal(parseAmount('1,842.17 DR'), -184_217);
  assert.equal(parseAmount('1.842,17 S'), -184_217);
  assert.equal(parseAmount('1.842,17 H'), 184_217);
  assert.equal(parseAmount('1.842,17-'), -184_217);
  assert.equal(parseAmount('(1,842.17)'), -184_217);
  for (const date of ['01.03.2024', '01-03-2024', '2024-03-01', '31/03/2024'])
    assert.deepEqual(amountsIn(date, commaDecimal).concat(amountsIn(date, dotDecimal)), [], date);
});

test('the convention is taken from the document, dates set aside', () => {
  assert.equal(detectConvention(['01.03.2024 Miete 950,00', 'Saldo 1.842,17']).decimal, ',');
  assert.equal(detectConvention(['03/01/2024 Rent 950.00', 'Balance 1,842.17']).decimal, '.');
  assert.equal(detectConvention(['Saldo początkowe 12 842,17']).spaceGroups, true);
});

test('a Dutch statement: holder, period with t/m, balances in the Dutch convention', () => {
  const fields = readFields(
    lines([
      'Rekeningafschrift',
      'Rekeninghouder: J. de Vries-Bakker',
      'IBAN NL91 ABNA 0417 1643 00',
      'Periode 01-03-2024 t/m 31-03-2024',
      'Beginsaldo 1.200,00',
      '04-03-2024 Huur -800,00 400,00',
      'Eindsaldo 400,00',
    ]),
    100,
  );
  assert.equal(fields.accountHolder?.value, 'J. de Vries-Bakker');
  assert.deepEqual(fields.period?.value, { start: '2024-03-01', end: '2024-03-31' });
  assert.equal(fields.openingBalance?.value, 120_000);
  assert.equal(fields.closingBalance?.value, 40_000);
  assert.equal(fields.language, 'nl');
  assert.equal(fields.statementWording, true);
});

test('periods in French, German, Spanish, Italian and Polish forms', () => {
  const cases: [string, string, string][] = [
    ['Relevé du 01/03/2024 au 31/03/2024', '2024-03-01', '2024-03-31'],
    ['Kontoauszug vom 01.03.2024 bis 31.03.2024', '2024-03-01', '2024-03-31'],
    ['Periodo del 01/02/2024 al 29/02/2024', '2024-02-01', '2024-02-29'],
    ['Estratto conto dal 01/04/2024 al 30/04/2024', '2024-04-01', '2024-04-30'],
    ['Okres od 01.05.2024 do 31.05.2024', '2024-05-01', '2024-05-31'],
  ];
  for (const [text, start, end] of cases)
    assert.deepEqual(readFields(lines([text]), 10).period?.value, { start, end }, text);
});

test('the holder from the address block when no label names it', () => {
  const fields = readFields(
    lines([
      'Beispielbank AG',
      'Frau',
      'Erika Beispiel',
      'Musterweg 12',
      '1010 Wien',
      'Kontoauszug Nr. 3/2024',
    ]),
    10,
  );
  assert.equal(fields.accountHolder?.value, 'Erika Beispiel');
});

test('a summary box: labels on one line, amounts on the next', () => {
  const fields = readFields(
    lines([
      'Beginning balance Deposits and additions Withdrawals and subtractions Ending balance',
      '$1,000.00 $500.00 -$200.00 $1,300.00',
    ]),
    10,
  );
  assert.equal(fields.openingBalance?.value, 100_000);
  assert.equal(fields.closingBalance?.value, 130_000);
});

test('US routing numbers near Routing, ABA or RTN labels', () => {
  for (const text of [
    'Routing number: 021000021',
    'ABA/Routing # 0210-0002-1',
    'RTN 021 000 021 Account number 000123456789',
  ])
    assert.equal(readFields(lines([text]), 10).routingNumber?.value, '021000021', text);
});

test('unsigned amounts in debit and credit columns take their direction from the row balance', () => {
  const fields = readFields(
    lines([
      'Opening balance 1,000.00',
      '02/01/2024 Salary 500.00 1,500.00',
      '03/01/2024 Rent 700.00 800.00',
      'Closing balance 800.00',
    ]),
    10,
  );
  assert.deepEqual(
    fields.transactions.map((row) => [row.amount, row.signKnown]),
    [
      [50_000, true],
      [-70_000, true],
    ],
  );
});

test('dates with month names, in the languages of the label table', () => {
  const cases: [string, string][] = [
    ['Statement period 1 March 2024 to 31 March 2024', '2024-03-01'],
    ['Kontoauszug vom 1. März 2024 bis 31. März 2024', '2024-03-01'],
    ['Relevé du 1 mars 2024 au 31 mars 2024', '2024-03-01'],
    ['Periode 1 maart 2024 t/m 31 maart 2024', '2024-03-01'],
    ['Periodo del 1 de marzo de 2024 al 31 de marzo de 2024', '2024-03-01'],
    ['Periodo dal 1 marzo 2024 al 31 marzo 2024', '2024-03-01'],
    ['Okres od 1 marca 2024 do 31 marca 2024', '2024-03-01'],
    ['Statement period: March 1, 2024 through March 31, 2024', '2024-03-01'],
  ];
  for (const [text, start] of cases)
    assert.deepEqual(
      readFields(lines([text]), 10).period?.value,
      { start, end: '2024-03-31' },
      text,
    );
  const fields = readFields(
    lines(['Opening balance 1,000.00', '04 Mar 2024 Card payment grocery -12.50 987.50']),
    10,
  );
  assert.deepEqual(
    fields.transactions.map((row) => [row.date, row.description, row.amount]),
    [['2024-03-04', 'Card payment grocery', -1_250]],
  );
});
