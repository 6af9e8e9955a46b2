/**
 * The reference matcher's normalisation, the data cleansing the EPC matching recommendations for VoP (EPC288-23)
 * leave to each PSP: Unicode NFKD with combining marks removed,
 * special Latin letters spelled out, upper case, & and + as AND, dots and apostrophes dropped (S.r.l. = SRL,
 * Dell'Acqua = DELLACQUA), any other punctuation as space, spaces collapsed. German
 * umlauts have a second spelling (Ü as UE), so a name yields one or two keys and matching takes the best pair.
 */
const specialLetters: Readonly<Record<string, string>> = {
  ß: 'SS',
  ẞ: 'SS',
  ø: 'O',
  Ø: 'O',
  æ: 'AE',
  Æ: 'AE',
  ł: 'L',
  Ł: 'L',
  þ: 'TH',
  Þ: 'TH',
  ð: 'D',
  Ð: 'D',
  đ: 'D',
  Đ: 'D',
  œ: 'OE',
  Œ: 'OE',
  ı: 'I',
};
const umlauts: Readonly<Record<string, string>> = {
  ä: 'AE',
  ö: 'OE',
  ü: 'UE',
  Ä: 'AE',
  Ö: 'OE',
  Ü: 'UE',
};

function fold(name: string, expandUmlauts: boolean): string {
  const spelled = [...name]
    .map((ch) => (expandUmlauts ? umlauts[ch] : undefined) ?? specialLetters[ch] ?? ch)
    .join('');
  return spelled
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[&+]/g, ' AND ')
    .replace(/[.'\u2019]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** One or two normalised keys of a name (the second when German umlauts can be spelled two ways). */
export function nameKeys(name: string): string[] {
  const plain = fold(name, false);
  const expanded = fold(name, true);
  return expanded === plain ? [plain] : [plain, expanded];
}
