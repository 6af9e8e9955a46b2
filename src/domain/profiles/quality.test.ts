import assert from 'node:assert/strict';
import { it } from 'node:test';
import { requestKeyOf, rowRng } from '../rng.js';
import { loadEmbeddedDefault } from '../../registry/embedded-default.js';
import { createMemoryDirectory } from '../../registry/memory-directory.js';
import { isReservedEmail } from './email.js';
import { buildProfileRecord, type ProfileRecord } from './engine.js';
import { scoreProfile } from './quality.js';
import { loadFaker } from './faker-loader.js';

// The service loads faker on the first profile request; these tests call the engine directly.
await loadFaker();

const bank = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026, 10, 24));

/** The weak-marker rule as documented in quality.ts, written plainly: every regex on every field, in order. */
function expectedWeakFields(p: ProfileRecord): string[] {
  const placeholder = /^(n\/?a|none|null|nil|unknown|tbd|tba|xxx+|-+|\?+|\.+|0+)$/i;
  const weakWord =
    /(?<![\p{L}\p{N}])(lorem|ipsum|test|testing|asdf|qwerty|dummy|foo|bar|baz|sample|placeholder|fake)(?![\p{L}\p{N}])/iu;
  const testDomain =
    /\b[\w-]+\.(test|invalid|localhost|example)\b|\b(example|test)\.(com|net|org)\b|\bmailinator\.com\b/i;
  const fields: [string, string | null][] = [
    ['first_name', p.first_name],
    ['last_name', p.last_name],
    ['phone', p.phone],
    ['address.street', p.address.street],
    ['address.postal_code', p.address.postal_code],
    ['address.city', p.address.city],
    ['occupation', p.occupation],
    ['tax_id', p.tax_id],
    ['bank.bank_name', p.bank?.bank_name ?? null],
    ['email', p.email],
  ];
  const weak: string[] = [];
  for (const [field, value] of fields) {
    if (value === null || value === '') continue;
    const isEmail = field === 'email';
    const text = isEmail ? value.slice(0, value.lastIndexOf('@')) : value;
    let why: string | undefined;
    if (placeholder.test(text.trim())) why = 'placeholder value';
    else if (weakWord.test(text)) why = 'test or filler word';
    else if (!isEmail && testDomain.test(text)) why = 'test domain outside the email field';
    else if (field !== 'phone' && /(\d)\1{5}/.test(text.replace(/\D/g, '')))
      why = 'run of six identical digits';
    else if (field === 'phone' && /^\+\d{1,3} ?(\d)(?: ?\1){5,}$/.test(text))
      why = 'phone of one repeated digit';
    else if (field === 'address.postal_code' && /^(\d)\1{3,}$/.test(text))
      why = 'postal code of one repeated digit';
    if (isEmail && !isReservedEmail(value) && why === undefined && testDomain.test(value))
      why = 'test domain that is not RFC 2606 reserved';
    if (why !== undefined) weak.push(`${field}: ${why}`);
  }
  return weak;
}

const texts = [
  'Anna',
  'N/A',
  ' none ',
  '000',
  '---',
  'Lorem Ipsum',
  'Barış',
  'bar',
  'Bar-Strasse 5',
  'ſample',
  'FA\u212Ae',
  'mail test.com 1',
  'x.invalid',
  'example.org',
  'Müller',
  '123456',
  '1 111 111',
  '+49 151 1111111',
  '+44 7700 900123',
  '+1 555 555 5555',
  '0000',
  '4444',
  '12345',
  '(0)30-123',
  'qwerty.test',
  'a.b',
  '',
  'Hauptstr. 12',
  'TESTING',
  'test123',
  'foo_bar',
  'D02 X285',
];
const emails = [
  'anna.schmidt48@example.org',
  'test@mailinator.com',
  'sample@example.net',
  'a.b@foo.test',
  'x@x.invalid',
  'ok@example.com.evil.org',
];

it('weak markers match the plain rule on placeholder, filler, domain and digit-run texts', () => {
  const base = buildProfileRecord(
    { countryCode: 'DE', gender: undefined, ageMin: 18, ageMax: 80 },
    rowRng(requestKeyOf('quality-test', '{}'), 0),
    { bank, today },
  );
  const context = { registryBank: undefined, national: bank, today };
  for (let i = 0; i < texts.length * 4; i++) {
    const pick = (offset: number) => texts[(i + offset) % texts.length] as string;
    const record: ProfileRecord = {
      ...base,
      first_name: pick(0),
      last_name: pick(3),
      phone: pick(7),
      occupation: pick(11),
      tax_id: pick(13),
      address: { ...base.address, street: pick(17), postal_code: pick(19), city: pick(23) },
      email: emails[i % emails.length] as string,
    };
    const actual = scoreProfile(record, context)
      .reasons.filter((reason) => reason.code === 'weak_marker')
      .map((reason) => reason.message);
    assert.deepEqual(actual, expectedWeakFields(record), `case ${i}`);
  }
});
