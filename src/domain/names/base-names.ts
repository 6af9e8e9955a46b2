import { legalForm, type LegalForm } from './legal-forms.js';

/**
 * Account holders: a person (given and family name) or a legal entity (a name core and a legal form of the
 * country's ISO 20275 table). The matrix draws its holders from holders.ts; the list below is the small fixed cast
 * of the payment scenarios, invented names with the diacritics of the Latin alphabets of SEPA countries (ß, ø, æ,
 * ł, ő, ș, þ, đ ...). None is taken from a register; a name may coincide with a real one by chance.
 */
export type { LegalForm };

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
  entity('DE', 'Brandtner Maschinenbau', legalForm('DE', '2HBR')),
  entity('DE', 'Lindqvist & Söhne Feinmechanik', legalForm('DE', '6QQB')),
  person('AT', 'Ägidius', 'Hörmann'),
  entity('AT', 'Pötzl Holzbau', legalForm('AT', 'AXSB')),
  person('FR', 'Hélène', 'Lefèvre-Dubœuf'),
  person('FR', 'François', 'Chaumière'),
  entity('FR', 'Boulangerie Sérieux Frères', legalForm('FR', '6CHY')),
  entity('FR', 'Transports Gaëtan Rivière', legalForm('FR', 'QVPB')),
  person('ES', 'María José', 'Peña Ibáñez'),
  person('ES', 'Iñaki', 'Azpeitia Muñoz'),
  entity('ES', 'Construcciones Núñez Herrero', legalForm('ES', 'DP3Q')),
  entity('ES', 'Distribuciones Ñandú del Sur', legalForm('ES', '5RDO')),
  person('IT', 'Niccolò', "Dell'Acqua"),
  entity('IT', 'Ferramenta Città Vecchia', legalForm('IT', 'OV32')),
  entity('IT', 'Officine Galbiati Moretti', legalForm('IT', 'P418')),
  person('NL', 'Sjoerd', 'van der Veen'),
  entity('NL', 'IJsselmeer Scheepsbouw', legalForm('NL', '54M6')),
  person('PL', 'Małgorzata', 'Wójcik-Żądło'),
  person('PL', 'Łukasz', 'Szczęsny'),
  entity('PL', 'Przędzalnia Łódzka Kowalczyk', legalForm('PL', 'O7XB')),
  person('CZ', 'Jiří', 'Dvořáček'),
  entity('CZ', 'Strojírny Břeclav Novotný', legalForm('CZ', '9HLU')),
  person('SE', 'Åsa', 'Lindström'),
  entity('SE', 'Björkviks Snickeri', legalForm('SE', 'XJHM')),
  person('DK', 'Søren', 'Kjærgaard'),
  entity('DK', 'Æbeløs Fiskeri', legalForm('DK', 'H8VP')),
  person('HU', 'Gergő', 'Szőke'),
  entity('HU', 'Győri Fűtéstechnika', legalForm('HU', 'P9F2')),
  person('PT', 'João', 'Conceição Gonçalves'),
  entity('PT', 'Cerâmicas Tâmega', legalForm('PT', 'USOG')),
  person('IS', 'Þórunn', 'Guðmundsdóttir'),
  entity('IS', 'Ísfirðingur Útgerð', legalForm('IS', 'M8SS')),
  person('RO', 'Ștefan', 'Țiriac-Ionescu'),
  person('IE', 'Siobhán', "O'Dónaill"),
  entity('IE', 'Connemara Stonecraft', legalForm('IE', 'MNQ7')),
  entity('GB', 'Harrowgate & Finch Provisions', legalForm('GB', 'B6ES')),
  person('GB', 'Alistair', 'McAllister-Hughes'),
  person('HR', 'Đurđica', 'Kovačević'),
  entity('HR', 'Brodogradilište Šimić', legalForm('HR', 'OQWO')),
];

export function fullNameOf(base: BaseName, style: 'short' | 'full' = 'short'): string {
  return base.kind === 'person'
    ? `${base.given} ${base.family}`
    : `${base.core} ${base.form[style]}`;
}
