import { nameKeys } from './normalize.js';

/**
 * Legal forms of the benchmark's holders, each from the GLEIF ISO 20275 Entity Legal Forms code list (version 1.5,
 * 2023-09-28, https://www.gleif.org/en/about-lei/code-lists/iso-20275-entity-legal-forms-code-list): the ELF code,
 * the local name as `full` and an abbreviation the list gives as `short`. Where the list gives no abbreviation, the
 * one the national company law prescribes is used and that law is named in `abbreviationSource`. GB and IE: the list
 * names the form "Private Limited Company" and gives "Ltd" and "Limited" as its abbreviations; the word written out
 * in a company name is "Limited", so that is `full`.
 */
export interface LegalForm {
  readonly country: string;
  readonly elf: string;
  readonly short: string;
  readonly full: string;
  /** null: the abbreviation is the ELF list's own. */
  readonly abbreviationSource: string | null;
}

const form = (
  country: string,
  elf: string,
  short: string,
  full: string,
  abbreviationSource: string | null = null,
): LegalForm => ({ country, elf, short, full, abbreviationSource });

export const elfListVersion = 'GLEIF ISO 20275 ELF code list 1.5 (2023-09-28)';

export const legalFormTable: readonly LegalForm[] = [
  form('AT', 'AXSB', 'GmbH', 'Gesellschaft mit beschränkter Haftung'),
  form('AT', 'EQOV', 'AG', 'Aktiengesellschaft'),
  form('BE', '3W7E', 'SRL', 'Société à responsabilité limitée'),
  form('BE', 'R85P', 'SA', 'Société anonyme'),
  form(
    'CZ',
    '9HLU',
    's.r.o.',
    'společnost s ručením omezeným',
    'Zákon č. 90/2012 Sb., o obchodních korporacích, § 132',
  ),
  form('DE', '2HBR', 'GmbH', 'Gesellschaft mit beschränkter Haftung'),
  form('DE', '6QQB', 'AG', 'Aktiengesellschaft'),
  form('DK', 'H8VP', 'ApS', 'Anpartsselskab'),
  form('DK', 'ZRPO', 'A/S', 'Aktieselskab'),
  form('ES', 'DP3Q', 'S.L.', 'Sociedad de Responsabilidad Limitada'),
  form('ES', '5RDO', 'S.A.', 'Sociedad Anonima'),
  // The list writes "oy"; company names capitalise it (GLEIF records: "Valaa Technologies Oy").
  form('FI', 'DKUW', 'Oy', 'Osakeyhtiö'),
  form('FR', '6CHY', 'SAS', 'société par actions simplifiée'),
  form('FR', 'QVPB', 'SA', 'Société anonyme'),
  form('GB', 'H0PO', 'Ltd', 'Limited'),
  form('GB', 'B6ES', 'PLC', 'Public Limited Company'),
  form('HR', 'OQWO', 'd.o.o.', 'Društvo s ograničenom odgovornošću'),
  form('HR', 'LUMA', 'd.d.', 'Dioničko društvo'),
  form('HU', 'P9F2', 'Kft.', 'Korlátolt felelősségű társaság'),
  form('HU', 'BKUX', 'Zrt.', 'Zártkörűen működő részvénytársaság'),
  form('IE', 'MNQ7', 'Ltd', 'Limited'),
  form('IE', 'VYAX', 'PLC', 'Public Limited Company'),
  form('IS', 'M8SS', 'ehf.', 'Einkahlutafélag'),
  form('IT', 'OV32', 'S.R.L.', 'Società A Responsabilità Limitata'),
  form('IT', 'P418', 'S.P.A.', 'Società Per Azioni'),
  form('LV', 'ES2D', 'SIA', 'Sabiedrība ar ierobežotu atbildību'),
  form('LV', 'VJBO', 'AS', 'Akciju sabiedrība'),
  form('NL', '54M6', 'B.V.', 'besloten vennootschap met beperkte aansprakelijkheid'),
  form('NL', 'B5PM', 'N.V.', 'naamloze vennootschap'),
  form('NO', 'YI42', 'AS', 'Aksjeselskap'),
  form('NO', 'IQGE', 'ASA', 'Allmennaksjeselskap'),
  form('PL', 'O7XB', 'sp. z o.o.', 'spółka z ograniczoną odpowiedzialnością'),
  form('PL', 'FJ0E', 'S.A.', 'spółka akcyjna'),
  form(
    'PT',
    'USOG',
    'Lda.',
    'Sociedade por Quotas',
    'Código das Sociedades Comerciais (Decreto-Lei n.º 262/86), artigo 200.º',
  ),
  form('RO', 'XHN1', 'SRL', 'Societate cu răspundere limitată'),
  form('RO', 'ANDT', 'SA', 'Societate pe acţiuni'),
  form('SE', 'XJHM', 'AB', 'Aktiebolag'),
  form('SK', 'VSZS', 'Spol. s r. o.', 'Spoločnosť s ručením obmedzeným'),
  form('SK', '2EEG', 'Akc. spol.', 'Akciová spoločnosť'),
];

/** The table's forms of one country, in table order. */
export function legalFormsOf(country: string): readonly LegalForm[] {
  return legalFormTable.filter((entry) => entry.country === country);
}

/** The table entry by country and ELF code; throws for a pair not in the table (a programming error). */
export function legalForm(country: string, elf: string): LegalForm {
  const found = legalFormTable.find((entry) => entry.country === country && entry.elf === elf);
  if (found === undefined) throw new Error(`no legal form ${elf} for ${country}`);
  return found;
}

/**
 * Legal-form words the reference matcher recognises at the end of a name, normalised, longest first, so
 * "GESELLSCHAFT MIT BESCHRANKTER HAFTUNG" is removed whole rather than leaving words behind. Both spellings of
 * every form in the table; a matcher for production would need every form of every SEPA country.
 */
const suffixes: readonly string[] = [
  ...new Set(
    legalFormTable.flatMap((entry) => [...nameKeys(entry.short), ...nameKeys(entry.full)]),
  ),
].sort((a, b) => b.length - a.length);

/** The name key without a trailing legal form, and the form as written (null when none). */
export function splitLegalForm(key: string): { core: string; form: string | null } {
  for (const suffix of suffixes) {
    if (key === suffix) continue;
    if (key.endsWith(` ${suffix}`)) return { core: key.slice(0, -suffix.length - 1), form: suffix };
  }
  return { core: key, form: null };
}
