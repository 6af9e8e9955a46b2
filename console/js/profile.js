// @ts-check
import { api } from './api.js';
import { byId, el, facts, show, valueOf } from './dom.js';
import { onSubmit } from './feedback.js';

/** @returns {Record<string, unknown>} */
function request() {
  /** @type {Record<string, unknown>} */
  const body = { country: valueOf('prof-country'), gender: valueOf('prof-gender') };
  if (valueOf('prof-seed') !== '') body.seed = valueOf('prof-seed');
  if (valueOf('prof-iban') !== '') body.iban = valueOf('prof-iban');
  return body;
}

/**
 * @param {any} profile
 * @param {number | null} left profiles the key may still create (null: no cap)
 */
function render(profile, left) {
  const address = profile.address ?? {};
  show('profile-results', [
    el('h2', { text: `${profile.first_name} ${profile.last_name}` }),
    facts([
      ['Country', profile.country_code],
      ['Gender', profile.gender],
      ['Date of birth', `${profile.date_of_birth} (age ${profile.age})`],
      ['Email', profile.email],
      ['Phone', profile.phone],
      [
        'Address',
        [
          address.street,
          `${address.postal_code ?? ''} ${address.city ?? ''}`.trim(),
          address.country,
        ]
          .filter(Boolean)
          .join(', '),
      ],
      ['Occupation', profile.occupation],
      ['Tax id', profile.tax_id === null ? null : `${profile.tax_id} (${profile.tax_id_scheme})`],
      ['IBAN', profile.iban],
      ['Quality', `${profile.quality_score} (${profile.quality_label})`],
      ['Provider', `${profile.provider}, ${profile.model}`],
      ['Profiles left', left],
    ]),
  ]);
}

export function setUpProfile() {
  onSubmit(/** @type {HTMLFormElement} */ (byId('profile-form')), 'profile-error', async () => {
    const { body } = await api('POST', '/profile', request());
    render(body.profile, body.generations_left);
  });
}
