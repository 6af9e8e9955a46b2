/**
 * The payment paths: SEPA schemes whose message sets and rules have a public source here, with the facts the
 * scenarios state and, as plainly, what is not available to this service.
 */
export const paymentPaths = ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'] as const;
export type PaymentPath = (typeof paymentPaths)[number];

export interface PathFacts {
  readonly path: PaymentPath;
  readonly title: string;
  readonly kind: 'credit_transfer' | 'direct_debit';
  /** The registry's payment_schemes value for participation (bank_intelligence.payment_schemes). */
  readonly registry_scheme: 'sct' | 'sct_inst' | 'sdd_core' | 'sdd_b2b';
  readonly facts: readonly { readonly fact: string; readonly source: string }[];
  readonly not_available: readonly string[];
}

const euroOnly = {
  fact: 'SEPA covers euro payments only; payments in other currencies are outside the schemes.',
  source:
    'European Commission MEMO/11/936 (20 Dec 2011): http://europa.eu/rapid/press-release_MEMO-11-936_en.htm',
};
const vopObligation = {
  fact: "Euro-area PSPs must offer Verification of Payee for instant and ordinary credit transfers from 9 Oct 2025; outcomes MTCH, CMTC (the holder's name is returned), NMTC, NOAP; the payer may proceed or cancel after any result.",
  source:
    'shared/notes/domain.md §2.1-2.2 (Instant Payments Regulation (EU) 2024/886; EPC VOP rulebook)',
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
      {
        fact: 'The EPC SCT implementation guidelines (version 2.2, pain.001.001.02 field 2.38) limit the amount of one credit transfer to EUR 999,999,999.99.',
        source: 'http://www.architome.nl/unifi/docs/maximal_amounts.html',
      },
      {
        fact: 'Messages: pain.001 (customer to PSP), pacs.008 (PSP to PSP), pacs.002 / pain.002 status (ACCP, ACSC, PDNG, RJCT with a reason code), pacs.004 return, camt.056 recall, camt.029 negative answer to a recall.',
        source:
          'shared/notes/domain.md §3.3; IBM Sterling SEPA inter-PSP credit transfer messages: https://www.ibm.com/docs/en/ste/11.0.1?topic=messages-credit-transfer-inter-psp',
      },
      {
        fact: 'Charge bearer SLEV and service level SEPA in pain.001.',
        source: 'shared/notes/domain.md §3.3',
      },
    ],
    not_available: [
      'The current (2025) SCT rulebook text itself: limits and time cycles are stated only as far as the sources above give them.',
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
      {
        fact: "Funds are made available on the payee's account within 10 seconds, 24/7/365.",
        source: 'shared/notes/domain.md §3.1 and §2.4 (EPC SCT Inst rulebook)',
      },
      {
        fact: 'Local instrument INST in pain.001; timeouts are rejected with AB05 / AB06.',
        source: 'shared/notes/domain.md §3.3',
      },
      {
        fact: 'EPC023-16 set the scheme maximum per SCT Inst instruction to EUR 100,000 from 1 July 2020 (EUR 15,000 before).',
        source:
          'https://p2pnetwork.org/latest-news/2607-maximum-amount-per-sepa-credit-transfer-to-increase.html',
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
        source: 'shared/notes/domain.md §3.1 (Numeral; Custodita)',
      },
      {
        fact: 'Messages: pain.008 (creditor to its PSP), pacs.003 (inter-PSP collection), pacs.002 reject, pacs.004 return or refund, pacs.007 reversal.',
        source:
          'IBM Sterling SEPA Direct Debit inter-PSP core messages: https://www.ibm.com/docs/en/ste/11.0.1?topic=messages-direct-debit-inter-psp-core',
      },
      {
        fact: 'Verification of Payee applies to credit transfers, not to direct debits.',
        source: 'shared/notes/domain.md §2.1',
      },
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
        source: 'shared/notes/domain.md §3.1 (Numeral; Custodita)',
      },
      {
        fact: 'Messages: pain.008, pacs.003, pacs.002 reject, pacs.004 return, pacs.007 reversal.',
        source:
          'IBM Sterling SEPA Direct Debit inter-PSP B2B messages: https://www.ibm.com/docs/en/ste/10.1.2?topic=messages-direct-debit-inter-psp-b2b',
      },
      {
        fact: 'Verification of Payee applies to credit transfers, not to direct debits.',
        source: 'shared/notes/domain.md §2.1',
      },
    ],
    not_available: ['A scheme maximum amount for SDD B2B: not available here; none is enforced.'],
  },
};

/** The EPC SCT implementation guidelines' maximum (pathFacts.SCT); applied to SCT only, where it is sourced. */
export const sctMaxCents = 99_999_999_999n;
