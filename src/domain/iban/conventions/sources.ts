import type { ConventionSource } from './types.js';

/** The registry's own entry for a country: its BBAN structure and published example. */
export function swiftRegistryEntry(country: string): ConventionSource {
  return {
    issuer: 'SWIFT, ISO 13616 Registration Authority',
    title: 'IBAN Registry (release 101)',
    section: `${country} entry: BBAN structure and BBAN example`,
    url: 'https://www.swift.com/standards/data-standards/iban-international-bank-account-number',
  };
}

export const tcmbIbanCommunique: ConventionSource = {
  issuer: 'Türkiye Cumhuriyet Merkez Bankası (Central Bank of the Republic of Türkiye)',
  title:
    'Uluslararası Banka Hesap Numarası (IBAN) Tebliği, Ek 1: Türkiye’de Uluslararası Banka Hesap Numarası Yapısı',
  section:
    'Ek 1, "Rezerv Alan": one digit, 0 until changed ("Değiştirilinceye kadar 0 kullanılır")',
  url: 'http://www.orgtr.org/tr/turkiyede-uluslararasi-banka-hesap-numarasi-yapisi-iban-teblig-ekleri',
};

export const bcbCircular3625: ConventionSource = {
  issuer: 'Banco Central do Brasil',
  title:
    'Circular nº 3.625 de 14 de fevereiro de 2013 (formato IBAN) and Deban, Diretrizes de Implementação do IBAN para o Brasil',
  section:
    'Art. 2º: the account-type letter (conta corrente or conta poupança) and the account-holder character that end the BBAN',
  url: 'https://www.bcb.gov.br/estabilidadefinanceira/exibenormativo?tipo=Circular&numero=3625',
};

export const ecbsMauritius: ConventionSource = {
  issuer: 'European Committee for Banking Standards (ECBS)',
  title: 'IBAN: Mauritius bank account number',
  section: 'BBAN structure 4!a2!n2!n12!n3!n3!a, BBAN example ending in the currency MUR',
  url: 'https://www.ecbs.org/iban/mauritius-bank-account-number.html',
};

export const cbsSeychellesRupee: ConventionSource = {
  issuer: 'Central Bank of Seychelles',
  title: 'Notes and Coins',
  section: 'legal tender denominated in Seychelles Rupees (ISO 4217 SCR)',
  url: 'https://www.cbs.sc/Currency/NotesAndCoins.html',
};

/**
 * The first two digits of UK sort codes as allocated to clearing banks. Pay.UK's per-branch directory (EISCD) is
 * licensed, not public, so the bank's first two digits are the finest public granularity.
 */
export const sortCodeAllocation: ConventionSource = {
  issuer: 'Wikipedia',
  title: 'Sort code',
  section:
    'List of sort codes of the United Kingdom (first two digits allocated to settlement members of the Cheque and Credit Clearing Company)',
  url: 'https://en.wikipedia.org/wiki/Sort_code',
};

export const jsBankIbanFormat: ConventionSource = {
  issuer: 'JS Bank Limited (Pakistan), on the State Bank of Pakistan’s IBAN instructions',
  title: 'International Bank Account Number (IBAN): IBAN Format',
  section: '"Last 16 digits will be the customer’s account number"',
  url: 'https://jsbl.com/iban-converter/index.html',
};
