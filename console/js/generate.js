// @ts-check
import { api } from './api.js';
import { copyAsCsv } from './csv.js';
import { byId, el, show, table, valueOf, verdict } from './dom.js';
import { onSubmit } from './feedback.js';

const columns = [
  'iban',
  'valid',
  'bank_code',
  'account_number',
  'national_check',
  'swift_code',
  'bank_name',
  'bank_city',
];

/** @returns {Record<string, unknown>} */
function request() {
  /** @type {Record<string, unknown>} */
  const body = {
    country: valueOf('gen-country'),
    quantity: Number(valueOf('gen-quantity')),
    include_bank_details: /** @type {HTMLInputElement} */ (byId('gen-bank')).checked,
  };
  const seed = valueOf('gen-seed');
  if (seed !== '') body.seed = seed;
  /** @type {Record<string, string>} */
  const targeting = {};
  if (valueOf('gen-city') !== '') targeting.city = valueOf('gen-city');
  if (valueOf('gen-target-bank') !== '') targeting.bank = valueOf('gen-target-bank');
  if (valueOf('gen-bic') !== '') targeting.bic = valueOf('gen-bic');
  if (Object.keys(targeting).length > 0) body.targeting = targeting;
  return body;
}

/** @param {any[]} rows */
function render(rows) {
  const cells = rows.map((row) => [
    el('span', { text: row.iban, className: 'mono' }),
    verdict(row.valid === true),
    row.bank_code ?? '—',
    row.account_number ?? '—',
    row.national_check,
    row.swift_code ?? '—',
    row.bank_name ?? '—',
    row.bank_city ?? '—',
  ]);
  show('generate-results', [
    copyAsCsv('generate-copy', columns, rows),
    table(
      `${rows.length} generated IBANs`,
      ['IBAN', 'Verdict', 'Bank code', 'Account', 'National check', 'BIC', 'Bank', 'City'],
      cells,
    ),
  ]);
}

export function setUpGenerate() {
  onSubmit(/** @type {HTMLFormElement} */ (byId('generate-form')), 'generate-error', async () => {
    const { body } = await api('POST', '/generate', request());
    render(body);
  });
}
