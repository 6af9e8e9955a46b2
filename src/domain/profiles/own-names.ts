import { allLocales } from '@faker-js/faker';
import { rngBelow, rngPick, type Rng } from '../rng.js';
import type { Gender } from './gender.js';
import type { ProfileFaker } from './faker-patterns.js';
import { greekFeminine, lithuanianFeminine, polishFeminine, surnameAgrees } from './surnames.js';

/**
 * Given names and surnames in the country's own language and in the form the bearer's sex takes. Faker's
 * locales supply them where they exist (the Polish and Greek surname lists hold one form, turned into the
 * women's form here); Lithuania and Iceland have no faker locale, so a short list of their most frequent names
 * (as the national statistics offices publish them: Statistics Lithuania, Statistics Iceland) is used, with the
 * language's own surname rules. Other countries without a locale keep the fallback language's names and are
 * labelled `locale_fallback`.
 */
const lithuanian = {
  female: [
    'Ona',
    'Kristina',
    'Rasa',
    'Irena',
    'Daiva',
    'Jurgita',
    'Aušra',
    'Rūta',
    'Laura',
    'Asta',
    'Inga',
    'Vilma',
    'Gintarė',
    'Eglė',
    'Austėja',
    'Ieva',
    'Gabija',
    'Emilija',
    'Greta',
    'Agnė',
  ],
  male: [
    'Jonas',
    'Petras',
    'Antanas',
    'Tomas',
    'Mindaugas',
    'Darius',
    'Andrius',
    'Vytautas',
    'Paulius',
    'Lukas',
    'Matas',
    'Mantas',
    'Dainius',
    'Saulius',
    'Rimantas',
    'Gintaras',
    'Aurimas',
    'Kęstutis',
    'Algirdas',
    'Justas',
  ],
  /** Men's forms; women's are derived. */
  surnames: [
    'Kazlauskas',
    'Jankauskas',
    'Petrauskas',
    'Stankevičius',
    'Vasiliauskas',
    'Žukauskas',
    'Butkus',
    'Paulauskas',
    'Urbonas',
    'Kavaliauskas',
    'Baranauskas',
    'Pocius',
    'Sakalauskas',
    'Navickas',
    'Rimkus',
    'Ramanauskas',
    'Žilinskas',
    'Lukoševičius',
    'Šimkus',
    'Vaitkus',
    'Adomaitis',
    'Petraitis',
    'Mockus',
    'Balčiūnas',
  ],
} as const;

const icelandic = {
  female: [
    'Guðrún',
    'Anna',
    'Kristín',
    'Sigríður',
    'Margrét',
    'Helga',
    'Sigrún',
    'Ingibjörg',
    'Jóhanna',
    'María',
  ],
  male: [
    'Jón',
    'Sigurður',
    'Guðmundur',
    'Gunnar',
    'Ólafur',
    'Einar',
    'Kristján',
    'Magnús',
    'Stefán',
    'Jóhann',
  ],
  /** The father's name as the patronymic takes it (Jón -> Jónsson, Sigurður -> Sigurðsson). */
  patronymicStems: [
    'Jóns',
    'Sigurðs',
    'Guðmunds',
    'Gunnars',
    'Ólafs',
    'Einars',
    'Kristjáns',
    'Magnús',
    'Stefáns',
    'Jóhanns',
  ],
} as const;

/** Faker's Greek surnames in the men's form, and their women's forms where the accent rule is handled. */
const greekMen =
  (allLocales.el.person?.last_name as { generic?: readonly string[] } | undefined)?.generic?.filter(
    (name) => /^\p{L}+ς$/u.test(name),
  ) ?? [];
const greekPairs = greekMen
  .map((male) => ({ male, female: greekFeminine(male) }))
  .filter((pair): pair is { male: string; female: string } => pair.female !== null);

export interface PersonName {
  readonly first: string;
  readonly last: string;
}

export function personName(
  countryCode: string,
  gender: Gender,
  faker: ProfileFaker,
  rng: Rng,
): PersonName {
  if (countryCode === 'LT') {
    const surname = rngPick(rng, lithuanian.surnames);
    const married = rngBelow(rng, 2) === 0;
    return {
      first: rngPick(rng, lithuanian[gender]),
      last: gender === 'female' ? lithuanianFeminine(surname, married) : surname,
    };
  }
  if (countryCode === 'IS')
    return {
      first: rngPick(rng, icelandic[gender]),
      last: `${rngPick(rng, icelandic.patronymicStems)}${gender === 'female' ? 'dóttir' : 'son'}`,
    };
  const first = faker.firstName(gender);
  if (countryCode === 'GR' && greekPairs.length > 0) {
    const pair = rngPick(rng, greekPairs);
    return { first, last: pair[gender] };
  }
  return { first, last: agreeingSurname(countryCode, gender, faker) };
}

/** Redraws allowed when a locale's list holds a surname in the other sex's form (faker's cs_CZ has a few). */
const surnameDrawsMax = 8;

function agreeingSurname(countryCode: string, gender: Gender, faker: ProfileFaker): string {
  let last = '';
  for (let draw = 0; draw < surnameDrawsMax; draw++) {
    last = faker.lastName(gender);
    if (countryCode === 'PL' && gender === 'female') last = polishFeminine(last);
    if (surnameAgrees(countryCode, last, gender)) return last;
  }
  return last;
}

/** Countries whose names come from the lists above although faker has no locale for them. */
export const ownNameCountries: readonly string[] = ['LT', 'IS'];
