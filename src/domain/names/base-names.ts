/**
 * Synthetic account holders for the VoP benchmark: invented combinations of common given names, family names and
 * trade words, with each country's legal forms. They are not taken from any register and name no real holder;
 * a combination may coincide with a real name by chance, as any synthetic name can.
 * Latin script only: the EPC VoP API carries Latin characters between PSPs (shared/notes/domain.md §2.3), so the
 * diacritics here are those of the Latin alphabets of SEPA countries (ß, ø, æ, ł, ő, ș, þ, đ ...).
 */

/** A legal form as written in full and as abbreviated (the pair the legal-form perturbation swaps). */
export interface LegalForm {
  readonly short: string;
  readonly full: string;
}

export interface PersonName {
  readonly kind: 'person';
  readonly country: string;
  readonly given: string;
  readonly family: string;
}

export interface EntityName {
  readonly kind: 'entity';
  readonly country: string;
  /** The name without its legal form, e.g. "Brandtner Maschinenbau". */
  readonly core: string;
  readonly form: LegalForm;
}

export type BaseName = PersonName | EntityName;

const form = (short: string, full: string): LegalForm => ({ short, full });

/** Legal forms and their full words as the national company laws name them. */
export const legalForms = {
  gmbh: form('GmbH', 'Gesellschaft mit beschränkter Haftung'),
  ag: form('AG', 'Aktiengesellschaft'),
  ltd: form('Ltd', 'Limited'),
  plc: form('PLC', 'Public Limited Company'),
  sarl: form('SARL', 'Société à responsabilité limitée'),
  sa_fr: form('S.A.', 'Société anonyme'),
  sl: form('S.L.', 'Sociedad Limitada'),
  sa_es: form('S.A.', 'Sociedad Anónima'),
  srl: form('S.r.l.', 'Società a responsabilità limitata'),
  spa: form('S.p.A.', 'Società per azioni'),
  bv: form('B.V.', 'Besloten Vennootschap'),
  spzoo: form('Sp. z o.o.', 'Spółka z ograniczoną odpowiedzialnością'),
  sro: form('s.r.o.', 'společnost s ručením omezeným'),
  ab: form('AB', 'Aktiebolag'),
  aps: form('ApS', 'Anpartsselskab'),
  kft: form('Kft.', 'korlátolt felelősségű társaság'),
  lda: form('Lda.', 'Sociedade por quotas'),
  ehf: form('ehf.', 'einkahlutafélag'),
} as const;

const person = (country: string, given: string, family: string): PersonName => ({
  kind: 'person',
  country,
  given,
  family,
});
const entity = (country: string, core: string, legal: LegalForm): EntityName => ({
  kind: 'entity',
  country,
  core,
  form: legal,
});

export const baseNames: readonly BaseName[] = [
  person('DE', 'Jürgen', 'Weißhäupl'),
  person('DE', 'Käthe', 'Großmann-Öztürk'),
  entity('DE', 'Brandtner Maschinenbau', legalForms.gmbh),
  entity('DE', 'Lindqvist & Söhne Feinmechanik', legalForms.ag),
  person('AT', 'Ägidius', 'Hörmann'),
  entity('AT', 'Pötzl Holzbau', legalForms.gmbh),
  person('FR', 'Hélène', 'Lefèvre-Dubœuf'),
  person('FR', 'François', 'Chaumière'),
  entity('FR', 'Boulangerie Sérieux Frères', legalForms.sarl),
  entity('FR', 'Transports Gaëtan Rivière', legalForms.sa_fr),
  person('ES', 'María José', 'Peña Ibáñez'),
  person('ES', 'Iñaki', 'Azpeitia Muñoz'),
  entity('ES', 'Construcciones Núñez Herrero', legalForms.sl),
  entity('ES', 'Distribuciones Ñandú del Sur', legalForms.sa_es),
  person('IT', 'Niccolò', "Dell'Acqua"),
  entity('IT', 'Ferramenta Città Vecchia', legalForms.srl),
  entity('IT', 'Officine Galbiati Moretti', legalForms.spa),
  person('NL', 'Sjoerd', 'van der Veen'),
  entity('NL', 'IJsselmeer Scheepsbouw', legalForms.bv),
  person('PL', 'Małgorzata', 'Wójcik-Żądło'),
  person('PL', 'Łukasz', 'Szczęsny'),
  entity('PL', 'Przędzalnia Łódzka Kowalczyk', legalForms.spzoo),
  person('CZ', 'Jiří', 'Dvořáček'),
  entity('CZ', 'Strojírny Břeclav Novotný', legalForms.sro),
  person('SE', 'Åsa', 'Lindström'),
  entity('SE', 'Björkviks Snickeri', legalForms.ab),
  person('DK', 'Søren', 'Kjærgaard'),
  entity('DK', 'Æbeløs Fiskeri', legalForms.aps),
  person('HU', 'Gergő', 'Szőke'),
  entity('HU', 'Győri Fűtéstechnika', legalForms.kft),
  person('PT', 'João', 'Conceição Gonçalves'),
  entity('PT', 'Cerâmicas Tâmega', legalForms.lda),
  person('IS', 'Þórunn', 'Guðmundsdóttir'),
  entity('IS', 'Ísfirðingur Útgerð', legalForms.ehf),
  person('RO', 'Ștefan', 'Țiriac-Ionescu'),
  person('IE', 'Siobhán', "O'Dónaill"),
  entity('IE', 'Connemara Stonecraft', legalForms.ltd),
  entity('GB', 'Harrowgate & Finch Provisions', legalForms.plc),
  person('GB', 'Alistair', 'McAllister-Hughes'),
  person('HR', 'Đurđica', 'Kovačević'),
  entity('HR', 'Brodogradilište Šimić', form('d.o.o.', 'društvo s ograničenom odgovornošću')),
];

export function fullNameOf(base: BaseName, style: 'short' | 'full' = 'short'): string {
  return base.kind === 'person'
    ? `${base.given} ${base.family}`
    : `${base.core} ${base.form[style]}`;
}
