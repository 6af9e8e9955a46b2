// @ts-check
// RFC 4180 CSV. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with a
// single quote, as OWASP's CSV Injection page advises, so a pasted list cannot smuggle a formula into a sheet.

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
 * Copies CSV text and says so in a live region (or why it could not).
 * @param {string} text
 * @param {HTMLElement} status
 * @param {number} rows
 */
export async function copyCsv(text, status, rows) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `Copied ${rows} rows as CSV.`;
  } catch {
    status.textContent = 'The browser did not allow copying to the clipboard.';
  }
}
