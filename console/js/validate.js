// @ts-check
import { api } from './api.js';
import { copyCsv, toCsv } from './csv.js';
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
    table(
      `${rows.length} checked, ${invalid} invalid`,
      ['IBAN', 'Verdict', 'Reason', 'Explanation', 'Country', 'National check', 'Bank'],
      cells,
    ),
  ]);
}

export function setUpValidate() {
  const copy = /** @type {HTMLButtonElement} */ (byId('val-copy'));
  /** @type {any[]} */
  let last = [];
  onSubmit(/** @type {HTMLFormElement} */ (byId('validate-form')), 'validate-error', async () => {
    byId('validate-copied').textContent = '';
    const { body } = await api('POST', '/validate', { ibans: ibansOf(valueOf('val-list')) });
    last = body;
    render(body);
    copy.disabled = last.length === 0;
  });
  copy.addEventListener('click', () => {
    const csv = toCsv(
      columns,
      last.map((row) => columns.map((name) => row[name])),
    );
    void copyCsv(csv, byId('validate-copied'), last.length);
  });
}
