import anyAscii from 'any-ascii';
import { rngDigits, rngPick, type Rng } from '../rng.js';

/** RFC 2606 reserves these second-level domains for documentation and tests: no mailbox can exist there. */
export const reservedEmailDomains = ['example.com', 'example.net', 'example.org'] as const;

/**
 * The e-mail's local part for a name: each part transliterated to ASCII by any-ascii (Łukasiewicz ->
 * lukasiewicz, Παπαδόπουλος -> papadopoulos, Иванов -> ivanov), lower-cased, anything but letters and digits
 * removed (spaces, hyphens, apostrophes), parts joined by a dot. No letter is dropped: every script any-ascii
 * knows is transliterated. The quality score recomputes it to check an e-mail against its name.
 */
export function emailLocalPart(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((part) =>
      anyAscii(part)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ''),
    )
    .filter((part) => part !== '')
    .join('.');
}

/** first.last + two digits at an RFC 2606 reserved domain (`client` when neither name has a letter any-ascii maps). */
export function syntheticEmail(firstName: string, lastName: string, rng: Rng): string {
  const local = emailLocalPart(firstName, lastName);
  return `${local === '' ? 'client' : local}${rngDigits(rng, 2)}@${rngPick(rng, reservedEmailDomains)}`;
}

/** Does the e-mail's local part read as the name (first.last, then digits only)? */
export function emailMatchesName(email: string, firstName: string, lastName: string): boolean {
  const local = email.slice(0, email.lastIndexOf('@'));
  const expected = emailLocalPart(firstName, lastName);
  return (
    expected !== '' && local.startsWith(expected) && /^\d*$/.test(local.slice(expected.length))
  );
}

export function isReservedEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return (
    (reservedEmailDomains as readonly string[]).includes(domain) ||
    domain.endsWith('.example') ||
    domain.endsWith('.test')
  );
}
