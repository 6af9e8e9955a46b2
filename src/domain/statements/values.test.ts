import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daysBetween, formatMinor, parseAmount, parseDate } from './values.js';

test('amounts in the common notations read as exact minor units', () => {
  const cases: [string, number | null][] = [
    ['1,234.56', 123_456],
    ['1.234,56', 123_456],
    ['-950,00', -95_000],
    ['950,00-', -95_000],
    ['−12.30', -1_230],
    ['$3,100.00', 310_000],
    ['-$2,100.00', -210_000],
    ['£1,000.00', 100_000],
    ["1'234.50", 123_450],
    ['0.07', 7],
    ['12', null],
    ['1.2', null],
    ['abc', null],
  ];
  for (const [text, minor] of cases) assert.equal(parseAmount(text), minor, text);
  assert.equal(formatMinor(-1_230), '-12.30');
  assert.equal(formatMinor(7), '0.07');
});

test('dates: ISO, dotted day first, slashed day or month first; impossible dates refused', () => {
  assert.equal(parseDate('2025-01-31', false), '2025-01-31');
  assert.equal(parseDate('31.01.2025', false), '2025-01-31');
  assert.equal(parseDate('04/05/2025', false), '2025-05-04');
  assert.equal(parseDate('04/05/2025', true), '2025-04-05');
  assert.equal(parseDate('31.02.2025', false), null);
  assert.equal(parseDate('2025-13-01', false), null);
  assert.equal(parseDate('29.02.2024', false), '2024-02-29');
  assert.equal(daysBetween('2025-01-01', '2025-01-31'), 30);
});
