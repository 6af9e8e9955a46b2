// @ts-check
import { api } from './api.js';
import { byId, el, facts, show, table, valueOf, verdict } from './dom.js';
import { onSubmit } from './feedback.js';

/**
 * Lines `country, IBAN, true|false`; a line that does not read so is named in the error.
 * @param {string} text
 */
function fixturesOf(text) {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.map((line, index) => {
    const parts = line.split(',').map((part) => part.trim());
    const expected = parts[2]?.toLowerCase();
    if (parts.length !== 3 || (expected !== 'true' && expected !== 'false'))
      throw new Error(`Line ${index + 1} is not "country, IBAN, true or false": ${line}`);
    return { country: parts[0], iban: parts[1], expected_valid: expected === 'true' };
  });
}

/** @type {string | null} */
let downloadUrl = null;

/** @param {unknown} manifest */
function offerDownload(manifest) {
  if (downloadUrl !== null) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(
    new Blob([`${JSON.stringify(manifest, null, 2)}\n`], { type: 'application/json' }),
  );
  const link = /** @type {HTMLAnchorElement} */ (byId('man-download'));
  link.href = downloadUrl;
  link.hidden = false;
}

/** @param {any} body */
function render(body) {
  const { manifest, verification } = body;
  const rows = manifest.fixtures.map((/** @type {any} */ fixture) => [
    fixture.country_code ?? fixture.country,
    el('span', { text: fixture.iban, className: 'mono' }),
    fixture.expected_valid ? 'valid' : 'invalid',
    verdict(fixture.observed_valid === true),
    fixture.error ?? '—',
  ]);
  show('manifest-results', [
    facts([
      [
        'Verification',
        verification.valid
          ? 'every fixture behaves as expected'
          : `${verification.mismatches.length} mismatches`,
      ],
      ['Fixture id', manifest.fixture_id],
      ['Registry snapshot', manifest.registry_snapshot],
      ['Artifact SHA-256', manifest.artifact_sha256],
      ['Signature', `${manifest.signature.alg}, key ${manifest.signature.key_id}`],
    ]),
    table(`${rows.length} fixtures`, ['Country', 'IBAN', 'Expected', 'Observed', 'Reason'], rows),
  ]);
}

export function setUpManifest() {
  onSubmit(/** @type {HTMLFormElement} */ (byId('manifest-form')), 'manifest-error', async () => {
    byId('man-download').hidden = true;
    /** @type {Record<string, unknown>} */
    const request = { fixtures: fixturesOf(valueOf('man-fixtures')) };
    if (valueOf('man-seed') !== '') request.seed = valueOf('man-seed');
    const { body } = await api('POST', '/fixture-manifest/compile', request);
    render(body);
    offerDownload(body.manifest);
  });
}
