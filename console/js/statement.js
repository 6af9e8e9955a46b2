// @ts-check
import { api } from './api.js';
import { byId, el, facts, show, table, valueOf } from './dom.js';
import { onSubmit } from './feedback.js';

/** Poll spacing, and how long to keep polling: the service stops an analysis after 60 s (limits.ts). */
const pollMs = 1000;
const pollForMs = 180_000;

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} text */
function progress(text) {
  byId('statement-progress').textContent = text;
}

/**
 * @param {string} title
 * @param {any[] | undefined} signals
 */
function signalList(title, signals) {
  if (signals === undefined || signals.length === 0) return [];
  const items = signals.map((signal) =>
    el('li', { text: `${signal.code} (${signal.severity}): ${signal.message}` }),
  );
  return [el('h2', { text: title }), el('ul', { className: 'signals' }, items)];
}

/** @param {any} review */
function renderReport(review) {
  if (review.status === 'analysis_failed') {
    const failure = review.failure ?? {};
    show('statement-results', [
      el('h2', { text: 'Analysis failed' }),
      facts([
        ['Reason', failure.reason],
        ['Message', failure.message],
        ['Credit refunded', failure.refunded ? 'yes' : 'no'],
      ]),
    ]);
    return;
  }
  const fields = review.extracted_fields ?? {};
  const period = fields.statement_period;
  const checks = (review.checks ?? []).map((/** @type {any} */ check) => [
    check.check,
    check.status,
    check.reason ?? '—',
  ]);
  show('statement-results', [
    el('h2', { text: 'Report' }),
    facts([
      ['Summary', review.summary],
      ['Score', `${review.score} / 100`],
      ['Risk level', review.risk_level],
      ['Bank statement', review.is_bank_statement ? 'yes' : 'no'],
      ['Account holder', fields.account_holder],
      ['IBAN', fields.iban],
      ['Period', period ? `${period.start} to ${period.end}` : null],
      ['Opening balance', fields.opening_balance],
      ['Closing balance', fields.closing_balance],
      ['Transactions', fields.transaction_count],
    ]),
    ...signalList('Inconsistencies', review.inconsistencies),
    ...signalList('Risk signals', review.risk_signals),
    ...signalList('Positive signals', review.positive_signals),
    table('Checks that ran', ['Check', 'Status', 'Reason not checked'], checks),
  ]);
}

/** @param {string} reviewId */
async function pollToReport(reviewId) {
  const deadline = Date.now() + pollForMs;
  for (;;) {
    const { status, body } = await api(
      'GET',
      `/statement-validator/review/${encodeURIComponent(reviewId)}`,
    );
    if (status !== 202) {
      progress(`Review ${reviewId}: ${body.status}.`);
      renderReport(body);
      return;
    }
    progress(`Review ${reviewId}: ${body.review_step}. ${body.review_message}`);
    if (Date.now() > deadline)
      throw new Error(`Review ${reviewId} is still ${body.review_step}; poll again later.`);
    await pause(pollMs);
  }
}

export function setUpStatement() {
  onSubmit(/** @type {HTMLFormElement} */ (byId('statement-form')), 'statement-error', async () => {
    const input = /** @type {HTMLInputElement} */ (byId('st-file'));
    const file = input.files?.[0];
    if (file === undefined) throw new Error('Choose a statement file first.');
    const form = new FormData();
    form.set('statement_file', file, file.name);
    if (valueOf('st-bank') !== '') form.set('expected_bank', valueOf('st-bank'));
    show('statement-results', []);
    progress(`Uploading ${file.name}…`);
    try {
      const { body } = await api('POST', '/statement-validator/analyze', form);
      progress(`Review ${body.review_id}: ${body.review_step}. ${body.review_message}`);
      await pollToReport(body.review_id);
    } catch (error) {
      progress('');
      throw error;
    }
  });
}
