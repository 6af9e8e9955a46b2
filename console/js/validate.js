// @ts-check
import { api } from './api.js';
import { copyAsCsv } from './csv.js';
import { byId, el, show, table, valueOf, verdict } from './dom.js';
import { onSubmit } from './feedback.js';

/** What the CSV carries per row: the input as sent, the verdict, and the reason of an invalid one. */
const columns = [
  'iban',
  'valid',
  'error',
  'message',
  'country_code',
  'national_check',
  'bank_name',
  'swift_code',
];

/** @param {string} text */
function ibansOf(text) {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** @param {any[]} rows */
function render(rows) {
  const invalid = rows.filter((row) => row.valid !== true).length;
  const cells = rows.map((row) => [
    el('span', { text: row.iban, className: 'mono' }),
    verdict(row.valid === true),
    row.error ?? '—',
    row.message ?? '—',
    row.country_code ?? '—',
    row.national_check,
    row.bank_name ?? '—',
  ]);
  show('validate-results', [
    copyAsCsv('validate-copy', columns, rows),
    table(
      `${rows.length} checked, ${invalid} invalid`,
      ['IBAN', 'Verdict', 'Reason', 'Explanation', 'Country', 'National check', 'Bank'],
      cells,
    ),
  ]);
}

export function setUpValidate() {
  onSubmit(/** @type {HTMLFormElement} */ (byId('validate-form')), 'validate-error', async () => {
    const { body } = await api('POST', '/validate', { ibans: ibansOf(valueOf('val-list')) });
    render(body);
  });
}
