import type { Gender } from './gender.js';

/**
 * Surnames that change with the bearer's sex, per language (the conventions as described in the Wikipedia
 * articles "Polish name", "Czech name", "Slovak name", "Lithuanian name", "Latvian name", "Greek name",
 * "Eastern Slavic naming customs", "Icelandic name"):
 * - PL: adjectival -ski, -cki, -dzki become -ska, -cka, -dzka for women; other surnames do not change;
 * - CZ, SK: women's forms end in -á (-ová, -ská, -cká, -ná); faker's cs_CZ and sk locales list both;
 * - LT: men's -as, -is, -ys, -us; women's married forms in -ienė (-uvienė for -us), maiden forms in -aitė,
 *   -ytė, -utė; both end in -ė;
 * - LV: men's forms end in -s or -š, women's in -a or -e (surnames in -e or -a, like Caune, are both);
 *   faker's lv locale lists both;
 * - GR: men's -ος, -ης, -ας (accented or not); women's forms are the genitive: -ου (-όπουλος -> -οπούλου,
 *   -ίδης -> -ίδου, -άδης -> -άδου), -η, -α; surnames already in the genitive (Παπαδημητρίου) are the same for both;
 * - RU, UA, MK, BG, BY, KZ (Cyrillic): men's -ов/-ев/-ин/-ын/-ский/-цкий (UA -ський/-цький/-ів), women's
 *   -ова/-ева/-ина/-ына/-ская/-цкая (UA -ська/-цька); faker's ru, uk and mk locales list both;
 * - IS: patronymics, the father's given name and -son (son) or -dóttir (daughter).
 * `surnameAgrees` is the check the quality score applies; the engine's own names pass it by construction.
 */
const polishMasculine = /(sk|ck|dzk)i$/;
const polishFeminineEnding = /(sk|ck|dzk)a$/;

const greekAccented: Readonly<Record<string, string>> = {
  ά: 'α',
  έ: 'ε',
  ή: 'η',
  ί: 'ι',
  ό: 'ο',
  ύ: 'υ',
  ώ: 'ω',
};
const greekVowel = /[αεηιουωάέήίόύώ]/;

/** The Greek women's form of a men's surname; null when the accent rule is not one handled here. */
export function greekFeminine(surname: string): string | null {
  if (surname.endsWith('όπουλος')) return `${surname.slice(0, -7)}οπούλου`;
  if (/(ίδης|άδης)$/.test(surname)) return `${surname.slice(0, -2)}ου`;
  if (/(ης|ής|ας|άς)$/.test(surname)) return surname.slice(0, -1);
  if (/ός$/.test(surname)) return `${surname.slice(0, -2)}ού`;
  if (/ος$/.test(surname)) {
    // Genitive -ου keeps the accent when it sits on the syllable before the ending.
    const stem = surname.slice(0, -2);
    const lastVowel = [...stem].reverse().findIndex((char) => greekVowel.test(char));
    const accented = [...stem].reverse().findIndex((char) => greekAccented[char] !== undefined);
    if (accented !== -1 && accented <= lastVowel + 1) return `${stem}ου`;
  }
  return null;
}

/** The Lithuanian women's form: married (-ienė) or maiden (-aitė, -ytė, -utė, -iūtė). */
export function lithuanianFeminine(surname: string, married: boolean): string {
  const stem = surname.replace(/(as|is|ys|ius|us)$/, '');
  const ending = surname.slice(stem.length);
  if (married) return ending === 'us' ? `${stem}uvienė` : `${stem}ienė`;
  if (ending === 'as') return `${stem}aitė`;
  if (ending === 'ius') return `${stem}iūtė`;
  if (ending === 'us') return `${stem}utė`;
  return `${stem}ytė`;
}

/** The Polish women's form of a surname (only the adjectival ones change). */
export function polishFeminine(surname: string): string {
  return polishMasculine.test(surname) ? `${surname.slice(0, -1)}a` : surname;
}

const cyrillicCountries = new Set(['RU', 'UA', 'MK', 'BG', 'BY', 'KZ']);
const cyrillicMasculine = /(ов|ев|ёв|ин|ын|ский|цкий|ской|ський|цький|ів)$/;
const cyrillicFeminine = /(ова|ева|ёва|ина|ына|ская|цкая|ська|цька)$/;

type Rule = (surname: string, gender: Gender) => boolean;

const rules: Readonly<Record<string, Rule>> = {
  PL: (s, g) => (g === 'female' ? !polishMasculine.test(s) : !polishFeminineEnding.test(s)),
  CZ: (s, g) => (g === 'female' ? s.endsWith('á') : !/(ová|ská|cká)$/.test(s)),
  SK: (s, g) => (g === 'female' ? s.endsWith('á') : !/(ová|ská|cká)$/.test(s)),
  LT: (s, g) => (g === 'female' ? s.endsWith('ė') : /s$/.test(s)),
  // Surnames in -e or -a (Caune, Liepa) are the same for men and women; only -s/-š is the men's form alone.
  LV: (s, g) => g === 'male' || !/[sš]$/.test(s),
  GR: (s, g) => (g === 'female' ? !/[ςσ]$/.test(s) : !/(ούλου|ίδου|άδου|άκη|ίδη)$/.test(s)),
  IS: (s, g) => (g === 'female' ? s.endsWith('dóttir') : s.endsWith('son')),
};

/** Gender agreement of the surname's last part (double-barrelled names: each part). Countries without gendered surnames: true. */
export function surnameAgrees(countryCode: string, surname: string, gender: Gender): boolean {
  const rule =
    rules[countryCode] ??
    (cyrillicCountries.has(countryCode) && /\p{Script=Cyrillic}/u.test(surname)
      ? (s: string, g: Gender) =>
          g === 'female' ? !cyrillicMasculine.test(s) : !cyrillicFeminine.test(s)
      : undefined);
  if (rule === undefined) return true;
  return surname
    .trim()
    .split(/[\s-]+/)
    .every((part) => rule(part, gender));
}

export function hasGenderedSurnames(countryCode: string): boolean {
  return rules[countryCode] !== undefined || cyrillicCountries.has(countryCode);
}
