// @ts-check
// The console's entry: the key form, page switching by the URL fragment (#generate, ...) and each page's wiring.
import { currentKey, forgetKey, rememberKey } from './api.js';
import { byId, el } from './dom.js';
import { setUpGenerate } from './generate.js';
import { setUpManifest } from './manifest.js';
import { setUpProfile } from './profile.js';
import { setUpStatement } from './statement.js';
import { refreshUsage, setUpUsage } from './usage.js';
import { setUpValidate } from './validate.js';

const pages = ['key', 'generate', 'validate', 'profile', 'manifest', 'statement', 'usage'];

function showKeyState() {
  byId('key-state').textContent =
    currentKey() === null ? 'No API key set' : 'API key set for this tab';
}

/** @param {boolean} moveFocus whether to put the keyboard on the page's heading (not on the first load) */
function showPage(moveFocus) {
  const wanted = location.hash.slice(1);
  const page = pages.includes(wanted) ? wanted : currentKey() === null ? 'key' : 'generate';
  for (const name of pages) byId(`page-${name}`).hidden = name !== page;
  for (const link of document.querySelectorAll('.tabs a')) {
    if (link.getAttribute('href') === `#${page}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${byId(`h-${page}`).textContent} · ibanqa console`;
  if (moveFocus) byId(`h-${page}`).focus();
  if (page === 'usage' && currentKey() !== null) void refreshUsage();
}

/**
 * Every page with results gets the same two regions after its form: `<page>-error` (role alert: read out at
 * once) and `<page>-results` (aria-live polite: read out when the answer arrives). Made here, once, at load,
 * so they exist before anything is written into them.
 */
function addRegions() {
  for (const section of document.querySelectorAll('section[data-regions]')) {
    const page = section.id.replace(/^page-/, '');
    const error = el('div', { className: 'error', attrs: { id: `${page}-error`, role: 'alert' } });
    const results = el('div', {
      className: 'results',
      attrs: { id: `${page}-results`, 'aria-live': 'polite' },
    });
    section.append(error, results);
  }
}

function setUpKey() {
  const form = /** @type {HTMLFormElement} */ (byId('key-form'));
  const input = /** @type {HTMLInputElement} */ (byId('key-input'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    rememberKey(input.value.trim());
    input.value = '';
    showKeyState();
    location.hash = '#generate';
  });
  byId('key-forget').addEventListener('click', () => {
    forgetKey();
    input.value = '';
    showKeyState();
    input.focus();
  });
}

addRegions();
setUpKey();
setUpGenerate();
setUpValidate();
setUpProfile();
setUpManifest();
setUpStatement();
setUpUsage();
showKeyState();
showPage(false);
window.addEventListener('hashchange', () => showPage(true));
