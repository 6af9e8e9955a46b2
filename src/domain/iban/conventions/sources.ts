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

/**
 * The communiqué itself (its number, date and Resmî Gazete issue are confirmed by the Resmî Gazete's page of its
 * 2012/14 amendment, which cites it). The Resmî Gazete's page of 10 October 2008 with Ek 1 could not be read here:
 * the wording of Ek 1 quoted in `section` was read in the reproduction of the annexes at `url`.
 */
export const tcmbIbanCommunique: ConventionSource = {
  issuer: 'Türkiye Cumhuriyet Merkez Bankası (Central Bank of the Republic of Türkiye)',
  title:
    'Uluslararası Banka Hesap Numarası Hakkında Tebliğ (Sayı: 2008/6), Resmî Gazete 10.10.2008, sayı 27020',
  section:
    'Madde 4(1): the reserve field (Rezerv Alan) is one digit; Ek 1, "Rezerv Alan, tek basamaklı rakamdan oluşur. Değiştirilinceye kadar 0 kullanılır" (0 until changed); Ek 1 read in the reproduction of the annexes at the URL',
  url: 'http://www.orgtr.org/tr/turkiyede-uluslararasi-banka-hesap-numarasi-yapisi-iban-teblig-ekleri',
};

/** The Resmî Gazete's own page of the communiqué's 2012/14 amendment: the primary record of its number and date. */
export const tcmbIbanAmendment2012: ConventionSource = {
  issuer:
    'Türkiye Cumhuriyet Merkez Bankası, published in the Resmî Gazete (T.C. Cumhurbaşkanlığı)',
  title:
    'Uluslararası Banka Hesap Numarası Hakkında Tebliğ (Sayı: 2008/6)’de Değişiklik Yapılmasına Dair Tebliğ (Sayı: 2012/14), Resmî Gazete 21.12.2012, sayı 28504',
  section:
    'Madde 1: names the amended communiqué, "10/10/2008 tarihli ve 27020 sayılı Resmî Gazete’de yayımlanan ... (Sayı: 2008/6)"; it leaves Madde 4 and Ek 1 unchanged',
  url: 'https://www.resmigazete.gov.tr/eskiler/2012/12/20121221-17.htm',
};

/**
 * The Circular fixes the 29-character format and its two last positions. Its text could not be read here on
 * bcb.gov.br: its title, date and Art. 1 were read in a reproduction, and the format string in the Deban
 * guidelines below.
 */
export const bcbCircular3625: ConventionSource = {
  issuer: 'Banco Central do Brasil, Diretoria Colegiada',
  title:
    'Circular nº 3.625, de 14 de fevereiro de 2013: institui formato padrão para identificação de contas bancárias mantidas no Brasil para fins de transferências internacionais de fundos (formato IBAN) e regulamenta a sua utilização',
  section:
    'Art. 2º: the criteria of the 29-character IBAN format (text not read here in full; see the Deban guidelines)',
  url: 'https://www.bcb.gov.br/estabilidadefinanceira/exibenormativo?tipo=Circular&numero=3625',
};

/**
 * The guidelines Deban published with the Circular (title, date and Deban's address as printed in the document).
 * Read here in a reproduction of the PDF, not on bcb.gov.br, and only in part: the format and the account fields,
 * not the passage with the value sets. The values C/P and 1/2 rest on secondary descriptions, which say the letter
 * tells a conta corrente from a conta poupança and the last character concerns the account's holders, and on the
 * registry example ending C1.
 */
export const debanIbanGuidelines: ConventionSource = {
  issuer:
    'Banco Central do Brasil, Deban (Departamento de Operações Bancárias e de Sistema de Pagamentos)',
  title:
    'Diretrizes de Implementação do IBAN para o Brasil (14 de fevereiro de 2013), Circular 3.625',
  section:
    '"Formação do IBAN": BR2!n8!n5!n10!n1!a1!c, ending in a letter for the account type and a character for the account holder; read in a reproduction of the PDF (the URL), without the passage naming the values',
  url: 'https://pdfdocumento.com/download/diretrizes-de-implementaao-do-iban-para-o-brasil-banco-central_59f9cefb1723dd471c2382ce.html',
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
 * Pay.UK manages the sort code rules and says who holds the directory: sort codes belong to payment service
 * providers and are registered in a central database whose extract, the EISCD, is available to users of the
 * payment systems (licensed, not public). So no issuer publishes which lead pair (first two digits) a bank holds.
 */
export const payUkSortCodes: ConventionSource = {
  issuer: 'Pay.UK',
  title: 'Sort code information (Access to payment systems: getting started)',
  section:
    'sort codes are allocated to payment service providers and registered in a central database; its extract, the Extended Industry Sort Code Directory (EISCD), is available to users of the payment systems',
  url: 'https://www.wearepay.uk/what-we-do/payment-systems/access-to-payment-systems/getting-started/sort-code-information/',
};

/**
 * The lead pairs per bank: a secondary source, the only public list found (see payUkSortCodes for why no primary
 * one is public). Each pair kept in gb-sort-codes.ts is one the list gives the bank.
 */
export const sortCodeAllocation: ConventionSource = {
  issuer: 'Wikipedia (secondary source: no issuer publishes the allocation)',
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
