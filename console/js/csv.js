// @ts-check
// RFC 4180 CSV. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with a
// single quote, as OWASP's CSV Injection page advises, so a pasted list cannot smuggle a formula into a sheet.
import { el } from './dom.js';

/** @param {unknown} value */
function cell(value) {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * @param {string[]} headings
 * @param {unknown[][]} rows
 * @returns {string}
 */
export function toCsv(headings, rows) {
  return [headings, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/**
 * A "Copy as CSV" button for result rows (the named fields of each, in order) and the status line that says
 * what was copied, or why nothing was.
 * @param {string} id the button's id
 * @param {string[]} columns
 * @param {Record<string, unknown>[]} rows
 * @returns {HTMLElement}
 */
export function copyAsCsv(id, columns, rows) {
  const status = el('p', { className: 'status', attrs: { role: 'status' } });
  const button = el('button', {
    text: 'Copy as CSV',
    className: 'secondary',
    attrs: { type: 'button', id },
  });
  button.addEventListener('click', () => {
    const text = toCsv(
      columns,
      rows.map((row) => columns.map((name) => row[name])),
    );
    navigator.clipboard.writeText(text).then(
      () => (status.textContent = `Copied ${rows.length} rows as CSV.`),
      () => (status.textContent = 'The browser did not allow copying to the clipboard.'),
    );
  });
  return el('div', { className: 'copy' }, [el('div', { className: 'actions' }, [button]), status]);
}
