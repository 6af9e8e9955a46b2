import { allLocales, type LocaleDefinition } from '@faker-js/faker';
import { rngBelow, type Rng } from '../rng.js';
import { fullNameOf, type BaseName, type EntityName, type PersonName } from './base-names.js';
import { legalFormsOf, type LegalForm } from './legal-forms.js';
import { tradeWordsByLanguage, type TradeLanguage, type TradeWords } from './trade-words.js';

/**
 * The matrix's account holders, drawn combinatorially: given and family names from the faker locale of the country
 * (the @faker-js/faker locale name lists), a trade word of the country's language,
 * and a legal form of the country from the ISO 20275 table. Latin script only, because the EPC VoP API carries
 * Latin characters between PSPs; so no Greek or Cyrillic countries. Countries without a faker name list (IS, LT,
 * EE, SI ...) are left out rather than given another country's names.
 */
interface CountrySource {
  readonly locale: LocaleDefinition;
  readonly language: TradeLanguage;
  /** Polish family names in -ski, -cki, -dzki take -ska, -cka, -dzka for women; faker's list has the masculine form. */
  readonly polishFeminine?: true;
}

const countrySources: Readonly<Record<string, CountrySource>> = {
  AT: { locale: allLocales.de_AT, language: 'de' },
  BE: { locale: allLocales.fr, language: 'fr' },
  CZ: { locale: allLocales.cs_CZ, language: 'cs' },
  DE: { locale: allLocales.de, language: 'de' },
  DK: { locale: allLocales.da, language: 'da' },
  ES: { locale: allLocales.es, language: 'es' },
  FI: { locale: allLocales.fi, language: 'fi' },
  FR: { locale: allLocales.fr, language: 'fr' },
  GB: { locale: allLocales.en, language: 'en' },
  HR: { locale: allLocales.hr, language: 'hr' },
  HU: { locale: allLocales.hu, language: 'hu' },
  IE: { locale: allLocales.en, language: 'en' },
  IT: { locale: allLocales.it, language: 'it' },
  LV: { locale: allLocales.lv, language: 'lv' },
  NL: { locale: allLocales.nl, language: 'nl' },
  NO: { locale: allLocales.nb_NO, language: 'nb' },
  PL: { locale: allLocales.pl, language: 'pl', polishFeminine: true },
  PT: { locale: allLocales.pt_PT, language: 'pt' },
  RO: { locale: allLocales.ro, language: 'ro' },
  SE: { locale: allLocales.sv, language: 'sv' },
  SK: { locale: allLocales.sk, language: 'sk' },
};

type Sex = 'female' | 'male';

interface NameLists {
  readonly given: Readonly<Record<Sex, readonly string[]>>;
  readonly family: Readonly<Record<Sex, readonly string[]>>;
  readonly trade: TradeWords;
  readonly forms: readonly LegalForm[];
}

/** A name of letters of the Latin script, with inner spaces, hyphens or apostrophes; nothing else (faker has a few). */
const latinName = /^\p{Script=Latin}(?:[\p{Script=Latin}' -]*\p{Script=Latin})?$/u;

function clean(list: readonly string[] | undefined): readonly string[] {
  return [...new Set((list ?? []).filter((name) => name.length >= 2 && latinName.test(name)))];
}

function feminine(family: string): string {
  return family.replace(/(sk|ck|dzk)i$/u, '$1a');
}

function listsOf(country: string, source: CountrySource): NameLists {
  const person = source.locale.person;
  const lastNames = person?.last_name;
  const generic = clean(lastNames?.generic);
  const male = lastNames?.male === undefined ? generic : clean(lastNames.male);
  const female =
    lastNames?.female !== undefined
      ? clean(lastNames.female)
      : source.polishFeminine === true
        ? [...new Set(male.map(feminine))]
        : generic;
  return {
    given: { female: clean(person?.first_name?.female), male: clean(person?.first_name?.male) },
    family: { female, male },
    trade: tradeWordsByLanguage[source.language],
    forms: legalFormsOf(country),
  };
}

const lists: ReadonlyMap<string, NameLists> = new Map(
  Object.entries(countrySources).map(([country, source]) => [country, listsOf(country, source)]),
);

/** The countries the matrix draws holders from, sorted. */
export const holderCountries: readonly string[] = [...lists.keys()].sort();

const pick = <T>(rng: Rng, items: readonly T[]): T => items[rngBelow(rng, items.length)] as T;

function listsFor(country: string): NameLists {
  const found = lists.get(country);
  if (found === undefined) throw new Error(`no holder names for ${country}`);
  return found;
}

export function drawPerson(rng: Rng, country: string): PersonName {
  const names = listsFor(country);
  const sex: Sex = rngBelow(rng, 2) === 0 ? 'female' : 'male';
  return {
    kind: 'person',
    country,
    given: pick(rng, names.given[sex]),
    family: pick(rng, names.family[sex]),
  };
}

/** "<family> <trade>" or "<trade> <family>" by the language's order; one in four has two families joined by "&". */
export function drawEntity(rng: Rng, country: string): EntityName {
  const names = listsFor(country);
  const families = names.family.male;
  const first = pick(rng, families);
  const partner = rngBelow(rng, 4) === 0 ? pick(rng, families) : first;
  const owners = partner === first ? first : `${first} & ${partner}`;
  const trade = pick(rng, names.trade.words);
  return {
    kind: 'entity',
    country,
    core: names.trade.first ? `${trade} ${owners}` : `${owners} ${trade}`,
    form: pick(rng, names.forms),
  };
}

export function drawHolder(rng: Rng, country: string, kind: BaseName['kind']): BaseName {
  return kind === 'person' ? drawPerson(rng, country) : drawEntity(rng, country);
}

/** Levenshtein distance over code points (small words only). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  x.forEach((cx, i) => {
    const current = [i + 1];
    y.forEach((cy, j) => {
      current.push(
        Math.min(
          (previous[j + 1] as number) + 1,
          (current[j] as number) + 1,
          (previous[j] as number) + (cx === cy ? 0 : 1),
        ),
      );
    });
    previous = current;
  });
  return previous[y.length] as number;
}

/** Draws are bounded: a stream that fails this often points at a broken name list, not bad luck. */
const attemptsMax = 200;

/** The first draw `accept` takes; throws after attemptsMax draws. */
export function drawUntil<T>(
  rng: Rng,
  draw: () => T,
  accept: (candidate: T) => boolean,
  what: string,
): T {
  for (let attempt = 0; attempt < attemptsMax; attempt++) {
    const candidate = draw();
    if (accept(candidate)) return candidate;
  }
  throw new Error(`no ${what} after ${attemptsMax} draws`);
}

/** Lower-case words of a name without its legal form and "&". */
export function wordsOf(base: BaseName): Set<string> {
  const text = base.kind === 'person' ? `${base.given} ${base.family}` : base.core;
  return new Set(
    text
      .toLowerCase()
      .split(/[\s-]+/u)
      .filter((word) => word !== '&' && word !== ''),
  );
}

/** Another holder of the same country and kind that shares no word with `base` (the easy NO_MATCH). */
export function unrelatedHolder(base: BaseName, rng: Rng): BaseName {
  const words = wordsOf(base);
  return drawUntil(
    rng,
    () => drawHolder(rng, base.country, base.kind),
    (other) => [...wordsOf(other)].every((word) => !words.has(word)),
    `unrelated holder for ${fullNameOf(base)}`,
  );
}

/**
 * Another holder of the same country and kind sharing a name word with `base` (the hard NO_MATCH): a person with the
 * same family name and a given name that starts with another letter and is at edit distance 3 or more (so neither
 * an initial nor a typo of it); an entity with the same owners and legal form and another trade word (Müller Bau
 * GmbH / Müller Holzbau GmbH).
 */
export function sharedWordHolder(base: BaseName, rng: Rng): BaseName {
  const names = listsFor(base.country);
  if (base.kind === 'person') {
    const sex: Sex = names.given.female.includes(base.given) ? 'female' : 'male';
    const given = drawUntil(
      rng,
      () => pick(rng, names.given[sex]),
      (candidate) =>
        candidate[0]?.toLowerCase() !== base.given[0]?.toLowerCase() &&
        editDistance(candidate.toLowerCase(), base.given.toLowerCase()) >= 3,
      `given name unlike ${base.given}`,
    );
    return { ...base, given };
  }
  const words = base.core.split(' ');
  const tradeAt = words.findIndex((word) => names.trade.words.includes(word));
  const current = words[tradeAt] as string;
  const trade = drawUntil(
    rng,
    () => pick(rng, names.trade.words),
    (candidate) => candidate !== current,
    `trade word other than ${current}`,
  );
  words[tradeAt] = trade;
  return { ...base, core: words.join(' ') };
}

/** Where the entity's trade word stands in its core: first, last, or none (a name not drawn here). */
export function tradeWordAt(base: EntityName): 'first' | 'last' | null {
  const source = countrySources[base.country];
  if (source === undefined) return null;
  const words = base.core.split(' ');
  const trades: readonly string[] = tradeWordsByLanguage[source.language].words;
  if (trades.includes(words[0] as string)) return 'first';
  if (trades.includes(words.at(-1) as string)) return 'last';
  return null;
}

/**
 * How many distinct names the generator can draw: persons (given x family per sex) and entities (one or two
 * families x trade words x legal forms), summed over the countries. Published in the catalog.
 */
export const holderSpace: { readonly persons: number; readonly entities: number } = (() => {
  let persons = 0;
  let entities = 0;
  for (const names of lists.values()) {
    for (const sex of ['female', 'male'] as const)
      persons += names.given[sex].length * names.family[sex].length;
    const families = names.family.male.length;
    entities += families * families * names.trade.words.length * names.forms.length;
  }
  return { persons, entities };
})();
