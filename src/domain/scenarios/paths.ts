import { cite, documents, type Citation } from '../sources/citations.js';

/**
 * The payment paths: SEPA schemes whose message sets and rules have a public source here, with the facts the
 * scenarios state and, as plainly, what is not available to this service.
 */
export const paymentPaths = ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'] as const;
export type PaymentPath = (typeof paymentPaths)[number];

export interface PathFact {
  readonly fact: string;
  readonly source: Citation;
}

export interface PathFacts {
  readonly path: PaymentPath;
  readonly title: string;
  readonly kind: 'credit_transfer' | 'direct_debit';
  /** The registry's payment_schemes value for participation (bank_intelligence.payment_schemes). */
  readonly registry_scheme: 'sct' | 'sct_inst' | 'sdd_core' | 'sdd_b2b';
  readonly facts: readonly PathFact[];
  readonly not_available: readonly string[];
}

const euroOnly: PathFact = {
  fact: 'SEPA covers euro payments only; payments in other currencies are outside the schemes.',
  source: cite(documents.sepaRegulation, 'Article 1(1)'),
};
const vopObligation: PathFact = {
  fact: 'Euro-area PSPs must offer Verification of Payee, free of charge, for instant and ordinary credit transfers from 9 October 2025; the payer may still authorise the transfer after any result.',
  source: cite(
    documents.instantPaymentsRegulation,
    'Article 5c inserted into Regulation (EU) No 260/2012',
  ),
};
const vopOutcomes: PathFact = {
  fact: "The VoP outcomes are match (MTCH), close match (CMTC, the account holder's name is returned to the payer), no match (NMTC) and verification not possible (NOAP).",
  source: cite(documents.vopRulebook),
};
const vopCreditTransfersOnly: PathFact = {
  fact: 'Verification of Payee applies to credit transfers, not to direct debits.',
  source: cite(
    documents.instantPaymentsRegulation,
    'Article 5c inserted into Regulation (EU) No 260/2012',
  ),
};

export const pathFacts: Readonly<Record<PaymentPath, PathFacts>> = {
  SCT: {
    path: 'SCT',
    title: 'SEPA Credit Transfer',
    kind: 'credit_transfer',
    registry_scheme: 'sct',
    facts: [
      euroOnly,
      vopObligation,
      vopOutcomes,
      {
        fact: 'The EPC SCT implementation guidelines limit the amount of one credit transfer to EUR 999,999,999.99 (at least EUR 0.01).',
        source: cite(documents.sctImplementationGuidelines),
      },
      {
        fact: 'Messages: pain.001 (customer to PSP), pacs.008 (PSP to PSP), pacs.002 / pain.002 status (ACCP, ACSC, PDNG, RJCT with a reason code), pacs.004 return, camt.056 recall, camt.029 negative answer to a recall.',
        source: cite(documents.isoMessageDefinitions),
      },
      {
        fact: 'Charge bearer SLEV and service level SEPA in pain.001.',
        source: cite(documents.sctImplementationGuidelines),
      },
    ],
    not_available: [
      'The text of the current SCT rulebook is not read by this service: limits and time cycles are stated only as far as the sources above give them.',
    ],
  },
  SCT_INST: {
    path: 'SCT_INST',
    title: 'SEPA Instant Credit Transfer',
    kind: 'credit_transfer',
    registry_scheme: 'sct_inst',
    facts: [
      euroOnly,
      vopObligation,
      vopOutcomes,
      {
        fact: "Funds are made available on the payee's account within 10 seconds, 24/7/365.",
        source: cite(documents.sctInstRulebook),
      },
      {
        fact: 'Local instrument INST in pain.001; timeouts are rejected with AB05 / AB06.',
        source: cite(documents.sctInstImplementationGuidelines),
      },
      {
        fact: 'EPC023-16 set the scheme maximum per SCT Inst instruction to EUR 100,000 from 1 July 2020 (EUR 15,000 before).',
        source: cite(documents.sctInstMaximumAmount),
      },
    ],
    not_available: [
      'Whether the 2025 (IPR-compliant) SCT Inst rulebook keeps a scheme maximum amount: not available here, so no maximum is enforced; the 2020 figure is reported as history.',
    ],
  },
  SDD_CORE: {
    path: 'SDD_CORE',
    title: 'SEPA Direct Debit Core',
    kind: 'direct_debit',
    registry_scheme: 'sdd_core',
    facts: [
      euroOnly,
      {
        fact: 'The creditor holds the mandate (Unique Mandate Reference + Creditor Identifier); the debtor may ask a refund within 8 weeks without reason, 13 months if unauthorised; pre-notification 14 days unless agreed otherwise.',
        source: cite(documents.sddCoreRulebook),
      },
      {
        fact: 'Messages: pain.008 (creditor to its PSP), pacs.003 (inter-PSP collection), pacs.002 reject, pacs.004 return or refund, pacs.007 reversal.',
        source: cite(documents.isoMessageDefinitions),
      },
      vopCreditTransfersOnly,
    ],
    not_available: [
      'A scheme maximum amount for SDD Core: not available here; none is enforced.',
      'Exact submission deadlines in business days: the sources give them only approximately.',
    ],
  },
  SDD_B2B: {
    path: 'SDD_B2B',
    title: 'SEPA Direct Debit Business to Business',
    kind: 'direct_debit',
    registry_scheme: 'sdd_b2b',
    facts: [
      euroOnly,
      {
        fact: 'Businesses only; no refund right; the debtor must confirm the mandate with its bank, otherwise the collection is rejected.',
        source: cite(documents.sddB2bRulebook),
      },
      {
        fact: 'Messages: pain.008, pacs.003, pacs.002 reject, pacs.004 return, pacs.007 reversal.',
        source: cite(documents.isoMessageDefinitions),
      },
      vopCreditTransfersOnly,
    ],
    not_available: ['A scheme maximum amount for SDD B2B: not available here; none is enforced.'],
  },
};

/** The EPC SCT implementation guidelines' maximum (pathFacts.SCT); applied to SCT only, where it is sourced. */
export const sctMaxCents = 99_999_999_999n;
