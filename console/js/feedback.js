// @ts-check
import { ApiError } from './api.js';
import { el, show } from './dom.js';

/**
 * Shows a refusal in the page's alert region: the API's code and message, and the request id to quote.
 * @param {string} regionId
 * @param {unknown} error
 */
export function showError(regionId, error) {
  if (error instanceof ApiError) {
    const lines = [el('p', { text: `${error.code}: ${error.message}` })];
    if (error.status !== 0) lines.push(el('p', { text: `HTTP status ${error.status}` }));
    if (error.requestId !== null) lines.push(el('p', { text: `Request id: ${error.requestId}` }));
    show(regionId, lines);
    return;
  }
  show(regionId, [el('p', { text: error instanceof Error ? error.message : String(error) })]);
}

/** @param {string} regionId */
export function clearError(regionId) {
  show(regionId, []);
}

/**
 * Runs one submit: the button is disabled meanwhile (no double submit), errors land in the region.
 * @param {HTMLFormElement} form
 * @param {string} errorId
 * @param {() => Promise<void>} work
 */
export function onSubmit(form, errorId, work) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement | null} */ (
      form.querySelector('button[type=submit]')
    );
    if (button !== null) button.disabled = true;
    clearError(errorId);
    work()
      .catch((error) => showError(errorId, error))
      .finally(() => {
        if (button !== null) button.disabled = false;
      });
  });
}
