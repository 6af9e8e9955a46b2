import { rngBelow, type Rng } from '../rng.js';
import { fullNameOf, type BaseName } from './base-names.js';
import { tradeWordAt } from './holders.js';
import type { VopLabel } from './labels.js';
import { umlautExpansions } from '../text/umlauts.js';

/** What was done to the account holder's name to get the name the payer typed. */
export const perturbations = [
  'exact',
  'case',
  'whitespace',
  'diacritics',
  'punctuation',
  'legal_form_variant',
  'legal_form_missing',
  'initials',
  'typo_1',
  'typo_2',
  'word_order',
  'different_entity',
  'different_entity_shared_word',
  'missing_name',
] as const;
export type Perturbation = (typeof perturbations)[number];

export interface PerturbationRule {
  readonly perturbation: Perturbation;
  readonly label: VopLabel;
  readonly rationale: string;
}

/** The labelling rules: one expected label per perturbation, with the reason (published in the catalog). */
export const labellingRules: readonly PerturbationRule[] = [
  {
    perturbation: 'exact',
    label: 'MATCH',
    rationale: "The payer typed the name exactly as the account holder's name is held.",
  },
  {
    perturbation: 'case',
    label: 'MATCH',
    rationale: 'Only letter case differs; case is a harmless difference removed by normalisation.',
  },
  {
    perturbation: 'whitespace',
    label: 'MATCH',
    rationale: 'Only leading, trailing or repeated spaces differ; removed by normalisation.',
  },
  {
    perturbation: 'diacritics',
    label: 'MATCH',
    rationale:
      'Accents and special letters written without them or transliterated (é→e, ü→ue, ß→ss, ø→o); a harmless difference after normalisation.',
  },
  {
    perturbation: 'punctuation',
    label: 'MATCH',
    rationale:
      'Only punctuation differs (dots, commas, apostrophes, hyphens, & written as "and"); removed by normalisation.',
  },
  {
    perturbation: 'legal_form_variant',
    label: 'CLOSE_MATCH',
    rationale:
      'The legal form is written in full instead of abbreviated (GmbH / Gesellschaft mit beschränkter Haftung, Ltd / Limited, S.A. / Sociedad Anónima): the same entity, a different name text; the payer is shown the name as held.',
  },
  {
    perturbation: 'legal_form_missing',
    label: 'CLOSE_MATCH',
    rationale:
      'The legal form is left out: the same entity, but not the name as held; the payer is shown the name as held.',
  },
  {
    perturbation: 'initials',
    label: 'CLOSE_MATCH',
    rationale:
      'A given name (person) or the first word (entity) is abbreviated to its initial: plausibly the holder, not the name as held.',
  },
  {
    perturbation: 'typo_1',
    label: 'CLOSE_MATCH',
    rationale:
      'One letter of the name is wrong (edit distance 1, first letter kept): a typing error close to the name as held.',
  },
  {
    perturbation: 'typo_2',
    label: 'CLOSE_MATCH',
    rationale:
      'Two letters of the name are wrong (edit distance 2, first letter kept): still close to the name as held.',
  },
  {
    perturbation: 'word_order',
    label: 'CLOSE_MATCH',
    rationale:
      'The same words in another order (family name first, or entity words swapped): the benchmark expects the payer to be shown the name as held.',
  },
  {
    perturbation: 'different_entity',
    label: 'NO_MATCH',
    rationale:
      'The name of another synthetic holder of the same country and kind, sharing no word with it: the name does not belong to the account.',
  },
  {
    perturbation: 'different_entity_shared_word',
    label: 'NO_MATCH',
    rationale:
      'Another synthetic holder of the same country and kind that shares a name word with the account holder: the same family name with a given name that is neither its initial nor a typo of it (another first letter, edit distance 3 or more), or the same owners and legal form with another line of business (Müller Bau GmbH / Müller Holzbau GmbH). A different holder: the name does not belong to the account.',
  },
  {
    perturbation: 'missing_name',
    label: 'NOAP',
    rationale:
      'No name was given (empty after trimming) and no identifier: a verification is not possible.',
  },
];

export const ruleOf: ReadonlyMap<Perturbation, PerturbationRule> = new Map(
  labellingRules.map((rule) => [rule.perturbation, rule]),
);

export interface Perturbed {
  readonly payerName: string;
  /** Levenshtein distance from the account name (typo rows only). */
  readonly editDistance: number | null;
}

const asciiLetter = /[A-Za-z]/;
// How a payer might type the letters without their diacritics. Written separately from the matcher's normalisation
// on purpose: a generator that were the exact inverse of the matcher would make the benchmark test nothing.
const specialLetters: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  Ø: 'O',
  æ: 'ae',
  Æ: 'AE',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  đ: 'd',
  Đ: 'D',
  œ: 'oe',
  Œ: 'OE',
  ı: 'i',
};

/** Diacritics removed: German umlauts expanded (ü→ue) for German-speaking holders, otherwise stripped (é→e). */
function withoutDiacritics(name: string, country: string): string {
  const expand = country === 'DE' || country === 'AT';
  return [...name]
    .map(
      (ch) =>
        (expand ? umlautExpansions[ch] : undefined) ??
        specialLetters[ch] ??
        ch.normalize('NFKD').replace(/\p{M}/gu, ''),
    )
    .join('');
}

/** d substitutions at distinct, non-adjacent ASCII-letter positions after the first letter: Levenshtein distance d. */
function typo(name: string, rng: Rng, distance: number): Perturbed {
  const chars = [...name];
  const candidates = chars
    .map((ch, index) => (index > 0 && asciiLetter.test(ch) ? index : -1))
    .filter((index) => index >= 0);
  const chosen: number[] = [];
  while (chosen.length < distance && candidates.length > 0) {
    const index = candidates.splice(rngBelow(rng, candidates.length), 1)[0] as number;
    if (chosen.every((other) => Math.abs(other - index) > 1)) chosen.push(index);
  }
  for (const index of chosen) {
    const original = chars[index] as string;
    const lower = original.toLowerCase();
    let replacement = lower;
    while (replacement === lower) replacement = String.fromCharCode(97 + rngBelow(rng, 26));
    chars[index] = original === lower ? replacement : replacement.toUpperCase();
  }
  return { payerName: chars.join(''), editDistance: chosen.length };
}

function initials(base: BaseName): string {
  if (base.kind === 'person') {
    const given = base.given
      .split(' ')
      .map((word) => `${[...word][0]}.`)
      .join(' ');
    return `${given} ${base.family}`;
  }
  const [first, ...rest] = base.core.split(' ');
  return `${[...(first ?? '')][0]}. ${rest.join(' ')} ${base.form.short}`;
}

/** Persons: family name first. Entities: the trade word moved to the other end ("Bau Müller & Schmidt"). */
function wordOrder(base: BaseName): string {
  if (base.kind === 'person') return `${base.family} ${base.given}`;
  const words = base.core.split(' ');
  const trade = tradeWordAt(base);
  const moved =
    trade === 'first'
      ? [...words.slice(1), words[0]]
      : trade === 'last'
        ? [words.at(-1), ...words.slice(0, -1)]
        : [...words.slice(1), words[0]];
  return `${moved.join(' ')} ${base.form.short}`;
}

function punctuation(name: string): string {
  const changed = name
    .replace(/&/g, 'and')
    .replace(/[.,']/g, '')
    .replace(/-/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  // Names without punctuation get some: a comma before the last word, as payers type "Surname, Given".
  if (changed !== name) return changed;
  const words = name.split(' ');
  return words.length < 2 ? `${name}.` : `${words.slice(0, -1).join(' ')}, ${words.at(-1)}`;
}

/** The payer's name for one perturbation of a base name; `other` is the different holder of the different_entity rows. */
export function perturb(
  base: BaseName,
  perturbation: Perturbation,
  rng: Rng,
  other: BaseName,
): Perturbed {
  const name = fullNameOf(base);
  const plain = (payerName: string): Perturbed => ({ payerName, editDistance: null });
  switch (perturbation) {
    case 'exact':
      return plain(name);
    case 'case':
      return plain(rngBelow(rng, 2) === 0 ? name.toUpperCase() : name.toLowerCase());
    case 'whitespace':
      return plain(`  ${name.split(' ').join('   ')} `);
    case 'diacritics':
      return plain(withoutDiacritics(name, base.country));
    case 'punctuation':
      return plain(punctuation(name));
    case 'legal_form_variant':
      return plain(
        base.kind === 'entity' ? fullNameOf(base, 'full') : `${base.given} ${base.family}`,
      );
    case 'legal_form_missing':
      return plain(base.kind === 'entity' ? base.core : name);
    case 'initials':
      return plain(initials(base));
    case 'typo_1':
      return typo(name, rng, 1);
    case 'typo_2':
      return typo(name, rng, 2);
    case 'word_order':
      return plain(wordOrder(base));
    case 'different_entity':
    case 'different_entity_shared_word':
      return plain(fullNameOf(other));
    case 'missing_name':
      return plain(rngBelow(rng, 2) === 0 ? '' : '   ');
  }
}

/** Perturbations that only make sense for one kind of holder (legal forms exist for entities only). */
export function appliesTo(perturbation: Perturbation, kind: BaseName['kind']): boolean {
  return (
    kind === 'entity' ||
    (perturbation !== 'legal_form_variant' && perturbation !== 'legal_form_missing')
  );
}

/** Whether the perturbation changes this name as it should: a diacritics row needs a name with diacritics. */
export function appliesToName(perturbation: Perturbation, base: BaseName): boolean {
  if (!appliesTo(perturbation, base.kind)) return false;
  if (perturbation === 'diacritics')
    return withoutDiacritics(fullNameOf(base), base.country) !== fullNameOf(base);
  return true;
}
