/**
 * Tolerant IBAN input: ASCII spaces (U+0020) are removed and ASCII letters upper-cased. Every other
 * character (tab, no-break space, hyphen, dot, control characters, any non-ASCII letter) is
 * `invalid_characters`: silently dropping them would accept look-alikes such as Cyrillic "А".
 */

const codeSpace = 32;
const codeDigit0 = 48;
const codeDigit9 = 57;
const codeUpperA = 65;
const codeUpperZ = 90;
const codeLowerA = 97;
const codeLowerZ = 122;
const caseOffset = 32; // 'a' - 'A'
const spreadChunk = 8_192;

/** Scan result: the input is already in electronic form. */
export const scanClean = -1;
/** Scan result: only spaces or lower-case letters stand between the input and electronic form. */
export const scanNeedsNormalizing = -2;

const classInvalid = 0;
const classKept = 1; // A-Z, 0-9
const classNormalized = 2; // space, a-z
const asciiSize = 128;
/** Character class of every ASCII code; anything at or above 128 is invalid. */
const asciiClasses = new Uint8Array(asciiSize);
asciiClasses.fill(classKept, codeDigit0, codeDigit9 + 1);
asciiClasses.fill(classKept, codeUpperA, codeUpperZ + 1);
asciiClasses.fill(classNormalized, codeLowerA, codeLowerZ + 1);
asciiClasses[codeSpace] = classNormalized;

/**
 * One pass over the input: `scanClean`, `scanNeedsNormalizing`, or the 0-based index of the first
 * character that may not appear in an IBAN at all.
 */
export function scanIbanInput(input: string): number {
  let result = scanClean;
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    const charClass = code < asciiSize ? asciiClasses[code]! : classInvalid;
    if (charClass === classKept) continue;
    if (charClass === classInvalid) return index;
    result = scanNeedsNormalizing;
  }
  return result;
}

/**
 * ISO 13616-1 prints an IBAN on paper as "IBAN DE89 3704 ...": the length of that leading "IBAN" and its
 * spaces (any letter case), or 0. No IBAN can begin with "IB" (no such country), so nothing valid is lost.
 * Only the word followed by a space counts: "IBANDE89..." or "IBAN:" are not the printed form.
 */
export function paperPrefixLength(input: string): number {
  if (
    input.length < 5 ||
    input.slice(0, 4).toUpperCase() !== 'IBAN' ||
    input.charCodeAt(4) !== codeSpace
  )
    return 0;
  let end = 5;
  while (input.charCodeAt(end) === codeSpace) end++;
  return end;
}

/** Removes ASCII spaces and upper-cases ASCII letters; any other character is kept as it is. */
export function normalizeIbanInput(input: string): string {
  const codes: number[] = [];
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (code === codeSpace) continue;
    codes.push(code >= codeLowerA && code <= codeLowerZ ? code - caseOffset : code);
  }
  let out = '';
  // Spread in chunks: one call with a huge argument list would overflow the stack on long input.
  for (let start = 0; start < codes.length; start += spreadChunk) {
    out += String.fromCharCode(...codes.slice(start, start + spreadChunk));
  }
  return out;
}

/** The print format of ISO 13616: groups of four characters separated by one space. */
export function formatIbanPrint(iban: string): string {
  const groups: string[] = [];
  for (let index = 0; index < iban.length; index += 4) groups.push(iban.slice(index, index + 4));
  return groups.join(' ');
}

/** Human label for a character in error messages: 'x' for printable ASCII, else U+XXXX. */
export function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (code > codeSpace && code < 127) return `'${character}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
