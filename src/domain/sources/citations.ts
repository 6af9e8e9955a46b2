/**
 * Public documents the answers cite. A citation names the document (title, issuer, document number and version),
 * the section where one can be named with confidence (null otherwise: no section number is guessed) and a URL
 * anyone can open. Nothing here refers to a file outside the repository.
 */
export interface Citation {
  readonly title: string;
  readonly issuer: string;
  /** Document number and version as the issuer writes them (e.g. "EPC218-23 version 1.0"); null when it has none. */
  readonly document: string | null;
  readonly section: string | null;
  readonly url: string;
}

type Document = Omit<Citation, 'section'>;

const epc = 'European Payments Council (EPC)';
const eu = 'European Parliament and Council of the European Union';

export const documents = {
  vopRulebook: {
    title: 'Verification Of Payee Scheme Rulebook',
    issuer: epc,
    document: 'EPC218-23 version 1.0',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/other-schemes/verification-payee',
  },
  vopMatching: {
    title:
      'EPC Recommendations for the matching processes under the Verification Of Payee scheme rulebook',
    issuer: epc,
    document: 'EPC288-23',
    url: 'https://www.europeanpaymentscouncil.eu/document-library/rulebooks/public-consultation-verification-payee-scheme-rulebook',
  },
  instantPaymentsRegulation: {
    title:
      'Regulation (EU) 2024/886 amending Regulations (EU) No 260/2012 and (EU) 2021/1230 and Directives 98/26/EC and (EU) 2015/2366 as regards instant credit transfers in euro',
    issuer: eu,
    document: 'Regulation (EU) 2024/886',
    url: 'https://eur-lex.europa.eu/eli/reg/2024/886/oj',
  },
  sepaRegulation: {
    title:
      'Regulation (EU) No 260/2012 establishing technical and business requirements for credit transfers and direct debits in euro',
    issuer: eu,
    document: 'Regulation (EU) No 260/2012',
    url: 'https://eur-lex.europa.eu/eli/reg/2012/260/oj',
  },
  sctRulebook: {
    title: 'SEPA Credit Transfer Scheme Rulebook',
    issuer: epc,
    document: 'EPC125-05 2025 version 1.1',
    url: 'https://www.europeanpaymentscouncil.eu/document-library/rulebooks/2025-sepa-credit-transfer-rulebook-version-11',
  },
  sctImplementationGuidelines: {
    title: 'SEPA Credit Transfer Scheme Customer-to-PSP and Inter-PSP Implementation Guidelines',
    issuer: epc,
    document: 'EPC132-08 and EPC115-06',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-credit-transfer/sepa-credit-transfer-rulebook-and',
  },
  sctInstRulebook: {
    title: 'SEPA Instant Credit Transfer Scheme Rulebook',
    issuer: epc,
    document: 'EPC004-16',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-instant-credit-transfer/sepa-instant-credit-transfer-rulebook',
  },
  sctInstMaximumAmount: {
    title: 'Maximum Amount for Instructions under the SCT Instant Rulebook',
    issuer: epc,
    document: 'EPC023-16',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-instant-credit-transfer/sepa-instant-credit-transfer-rulebook',
  },
  sctInstImplementationGuidelines: {
    title:
      'SEPA Instant Credit Transfer Scheme Customer-to-PSP and Inter-PSP Implementation Guidelines',
    issuer: epc,
    document: 'EPC121-16 and EPC122-16',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-instant-credit-transfer/sepa-instant-credit-transfer-rulebook',
  },
  sddCoreRulebook: {
    title: 'SEPA Direct Debit Core Scheme Rulebook',
    issuer: epc,
    document: 'EPC016-06',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-direct-debit/sepa-direct-debit-core-rulebook-and-implementation',
  },
  sddB2bRulebook: {
    title: 'SEPA Direct Debit Business to Business Scheme Rulebook',
    issuer: epc,
    document: 'EPC222-07',
    url: 'https://www.europeanpaymentscouncil.eu/what-we-do/epc-payment-schemes/sepa-direct-debit',
  },
  sctReasonCodes: {
    title: 'Guidance on Reason Codes for SCT R-transactions',
    issuer: epc,
    document: 'EPC135-18 version 6.0',
    url: 'https://www.europeanpaymentscouncil.eu/sites/default/files/kb/file/2024-11/EPC135-18%20v6.0%20Guidance%20on%20Reason%20Codes%20for%20SCT%20R-transactions.pdf',
  },
  sddReasonCodes: {
    title: 'Guidance on Reason Codes for SDD R-transactions',
    issuer: epc,
    document: 'EPC173-14 version 8.0',
    url: 'https://www.europeanpaymentscouncil.eu/sites/default/files/kb/file/2024-11/EPC173-14%20v8.0%20Guidance%20on%20Reason%20Codes%20for%20SDD%20R-transactions.pdf',
  },
  isoExternalCodeSets: {
    title: 'ISO 20022 External Code Sets',
    issuer: 'ISO 20022 Registration Authority (SWIFT)',
    document: null,
    url: 'https://www.iso20022.org/catalogue-messages/additional-content-messages/external-code-sets',
  },
  isoMessageDefinitions: {
    title:
      'ISO 20022 Message Definitions (payments initiation pain, payments clearing and settlement pacs, cash management camt)',
    issuer: 'ISO 20022 Registration Authority (SWIFT)',
    document: null,
    url: 'https://www.iso20022.org/iso-20022-message-definitions',
  },
  elfCodeList: {
    title: 'ISO 20275 Entity Legal Forms (ELF) Code List',
    issuer: 'Global Legal Entity Identifier Foundation (GLEIF)',
    document: 'ELF code list version 1.5 (2023-09-28)',
    url: 'https://www.gleif.org/en/about-lei/code-lists/iso-20275-entity-legal-forms-code-list',
  },
  ipfVopNameMatching: {
    title: 'IPF Verification of Payee Responder: name matching',
    issuer: 'Icon Solutions (IPF documentation, release 2025.1.0)',
    document: null,
    url: 'https://docs.ipfdev.co.uk/en/services/IPF_RELEASE_2025.1.0/verification-of-payee-responder/features/name-matching.html',
  },
  fakerNames: {
    title: 'Faker (@faker-js/faker) locale name data',
    issuer: 'Faker contributors (MIT licence)',
    document: '@faker-js/faker 10.6.0',
    url: 'https://fakerjs.dev/api/person',
  },
  rfc8785: {
    title: 'JSON Canonicalization Scheme (JCS)',
    issuer: 'RFC Editor (Independent Submission stream)',
    document: 'RFC 8785',
    url: 'https://www.rfc-editor.org/rfc/rfc8785',
  },
  rfc8032: {
    title: 'Edwards-Curve Digital Signature Algorithm (EdDSA)',
    issuer: 'Internet Research Task Force (IRTF)',
    document: 'RFC 8032',
    url: 'https://www.rfc-editor.org/rfc/rfc8032',
  },
  rfc8410: {
    title:
      'Algorithm Identifiers for Ed25519, Ed448, X25519, and X448 for Use in the Internet X.509 Public Key Infrastructure',
    issuer: 'Internet Engineering Task Force (IETF)',
    document: 'RFC 8410',
    url: 'https://www.rfc-editor.org/rfc/rfc8410',
  },
  rfc4648: {
    title: 'The Base16, Base32, and Base64 Data Encodings',
    issuer: 'Internet Engineering Task Force (IETF)',
    document: 'RFC 4648',
    url: 'https://www.rfc-editor.org/rfc/rfc4648',
  },
  fips1804: {
    title: 'Secure Hash Standard (SHS)',
    issuer: 'National Institute of Standards and Technology (NIST)',
    document: 'FIPS PUB 180-4',
    url: 'https://doi.org/10.6028/NIST.FIPS.180-4',
  },
  jsonSchema202012: {
    title: 'JSON Schema, draft 2020-12',
    issuer: 'JSON Schema organisation',
    document: 'draft 2020-12',
    url: 'https://json-schema.org/draft/2020-12',
  },
} as const satisfies Record<string, Document>;

/** A citation of a document, with a section only where it is known. */
export function cite(document: Document, section: string | null = null): Citation {
  return { ...document, section };
}
