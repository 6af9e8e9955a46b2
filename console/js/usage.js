// @ts-check
import { api } from './api.js';
import { byId, facts, show, table } from './dom.js';
import { showError, clearError } from './feedback.js';

/** Credit kinds in the order the README's plan table lists them. */
const kinds = [
  ['api_calls', 'API calls'],
  ['profiles', 'Profiles'],
  ['bic_reveals', 'BIC reveals'],
  ['exports', 'Exports'],
  ['bank_metadata', 'Bank metadata'],
  ['statements', 'Statements'],
];

/** @param {unknown} value */
function count(value) {
  return value === null || value === undefined ? 'no cap' : String(value);
}

/** @param {any} body */
function render(body) {
  const rows = kinds
    .filter(([kind]) => body.credits[kind] !== undefined)
    .map(([kind, label]) => {
      const credit = body.credits[kind];
      return [
        label,
        count(credit.allowance),
        String(credit.used),
        String(credit.reserved),
        count(credit.remaining),
        credit.period_end ?? '—',
      ];
    });
  show('usage-results', [
    facts([
      ['Plan', body.plan_name],
      ['Key id', body.key_id],
      [
        'Period',
        `${body.period.kind}, from ${body.period.start}${body.period.end ? ` to ${body.period.end}` : ''}`,
      ],
      ['Expires', body.expires_at],
    ]),
    table(
      'Balances per credit kind',
      ['Credit', 'Allowance', 'Used', 'Reserved', 'Remaining', 'Period end'],
      rows,
    ),
  ]);
}

export async function refreshUsage() {
  const button = /** @type {HTMLButtonElement} */ (byId('usage-refresh'));
  button.disabled = true;
  clearError('usage-error');
  try {
    render((await api('GET', '/usage')).body);
  } catch (error) {
    showError('usage-error', error);
  } finally {
    button.disabled = false;
  }
}

export function setUpUsage() {
  byId('usage-refresh').addEventListener('click', () => void refreshUsage());
}
