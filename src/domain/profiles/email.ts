import type { Faker } from '@faker-js/faker';
import { rngDigits, rngPick, type Rng } from '../rng.js';

/** RFC 2606 reserves these second-level domains for documentation and tests: no mailbox can exist there. */
export const reservedEmailDomains = ['example.com', 'example.net', 'example.org'] as const;

const asciiLocalPart = /^[a-z0-9]+(?:[._][a-z0-9]+)*$/;

const asciiAlphanumeric = /^[A-Za-z0-9]*$/;

function ascii(text: string): string {
  // Plain ASCII letters and digits: decomposition and mark removal change nothing.
  if (asciiAlphanumeric.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * first.last + two digits at a reserved domain. Latin-script names are folded to ASCII; Cyrillic, Greek and
 * Hebrew names go through faker's transliteration; a script faker cannot transliterate (it yields hex escapes
 * for Georgian) gets a neutral `client` local part rather than garbage.
 */
export function syntheticEmail(
  firstName: string,
  lastName: string,
  faker: Faker,
  rng: Rng,
): string {
  let first = ascii(firstName);
  let last = ascii(lastName);
  if (first === '' || last === '') {
    const username = faker.internet.username({ firstName, lastName }).toLowerCase();
    const [a = '', b = ''] = username.split(/[._]/);
    first = ascii(a);
    last = ascii(b.replace(/\d+$/, ''));
    if (/\p{Script=Georgian}/u.test(firstName + lastName) || first === '' || last === '') {
      first = 'client';
      last = '';
    }
  }
  const local = [first, last].filter((part) => part !== '').join('.') + rngDigits(rng, 2);
  return `${asciiLocalPart.test(local) ? local : `client${rngDigits(rng, 4)}`}@${rngPick(rng, reservedEmailDomains)}`;
}

export function isReservedEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return (
    (reservedEmailDomains as readonly string[]).includes(domain) ||
    domain.endsWith('.example') ||
    domain.endsWith('.test')
  );
}
