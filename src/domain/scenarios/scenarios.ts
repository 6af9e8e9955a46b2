import type { PaymentPath } from './paths.js';

/** One message of a flow: a named ISO 20022 message (or the EPC VoP API exchange, which is not ISO 20022). */
export interface FlowStep {
  readonly step: number;
  readonly message: string;
  readonly iso20022: boolean;
  readonly from: string;
  readonly to: string;
  /** ISO 20022 status (ACCP, ACSC, PDNG, RJCT) or null for messages that carry none; assumed for illustration. */
  readonly status: string | null;
  readonly reason_code: string | null;
  readonly day_offset: number;
  readonly note: string;
}

/** How a scenario ends; `reasons`: the codes the seed picks from (one per compiled scenario). */
export interface ScenarioDefinition {
  readonly name: string;
  readonly path: PaymentPath;
  readonly title: string;
  readonly description: string;
  readonly reasons: readonly string[];
  /** The message steps after any VoP exchange, given the picked reason (null when the scenario has none) and a coin. */
  readonly flow: (reason: string | null, coin: boolean) => Omit<FlowStep, 'step'>[];
  readonly final: (
    reason: string | null,
    coin: boolean,
  ) => { readonly status: string; readonly summary: string };
}

const m = (
  message: string,
  from: string,
  to: string,
  status: string | null,
  reason: string | null,
  day: number,
  note: string,
): Omit<FlowStep, 'step'> => ({
  message,
  iso20022: true,
  from,
  to,
  status,
  reason_code: reason,
  day_offset: day,
  note,
});

const ctInitiation = (inst: boolean) => [
  m(
    'pain.001',
    'payer',
    'payer_psp',
    null,
    null,
    0,
    inst
      ? 'Customer credit transfer initiation, local instrument INST'
      : 'Customer credit transfer initiation, service level SEPA, charge bearer SLEV',
  ),
  m('pacs.008', 'payer_psp', 'payee_psp', null, null, 0, 'FI to FI customer credit transfer'),
];
const ddInitiation = [
  m(
    'pain.008',
    'creditor',
    'creditor_psp',
    null,
    null,
    0,
    'Customer direct debit initiation with the mandate reference and creditor identifier',
  ),
  m(
    'pacs.003',
    'creditor_psp',
    'debtor_psp',
    null,
    null,
    1,
    'FI to FI customer direct debit (collection)',
  ),
];

export const scenarioDefinitions: readonly ScenarioDefinition[] = [
  {
    name: 'sct_accepted',
    path: 'SCT',
    title: 'SEPA credit transfer, settled',
    description: 'The transfer is executed and the payee credited.',
    reasons: [],
    flow: () => [
      ...ctInitiation(false),
      m(
        'pacs.002',
        'payee_psp',
        'payer_psp',
        'ACSC',
        null,
        1,
        'Settlement completed (status assumed for illustration)',
      ),
    ],
    final: () => ({ status: 'ACSC', summary: 'Credited to the payee.' }),
  },
  {
    name: 'sct_rejected',
    path: 'SCT',
    title: "SEPA credit transfer, rejected by the payee's PSP",
    description: "The payee's PSP rejects the transfer before settlement.",
    reasons: ['AC01', 'AC04', 'AC06', 'RC01', 'FF01', 'CNOR', 'RR04', 'MS03'],
    flow: (reason) => [
      ...ctInitiation(false),
      m('pacs.002', 'payee_psp', 'payer_psp', 'RJCT', reason, 0, 'Reject'),
      m('pain.002', 'payer_psp', 'payer', 'RJCT', reason, 0, 'Customer payment status report'),
    ],
    final: (reason) => ({
      status: 'RJCT',
      summary: `Rejected with ${reason}; the payer's account is not debited or is re-credited.`,
    }),
  },
  {
    name: 'sct_returned',
    path: 'SCT',
    title: 'SEPA credit transfer, returned after settlement',
    description: "The transfer settles, then the payee's PSP returns the funds.",
    reasons: ['AC04', 'AC06', 'AG01', 'MD07', 'MS03', 'RR04'],
    flow: (reason) => [
      ...ctInitiation(false),
      m('pacs.004', 'payee_psp', 'payer_psp', null, reason, 2, 'Payment return'),
    ],
    final: (reason) => ({
      status: 'RETURNED',
      summary: `Returned with ${reason}; funds go back to the payer.`,
    }),
  },
  {
    name: 'sct_recall',
    path: 'SCT',
    title: "SEPA credit transfer, recalled by the payer's PSP",
    description:
      "After settlement the payer's PSP recalls the transfer; the payee's PSP answers positively (return) or negatively.",
    reasons: ['DUPL', 'TECH'],
    flow: (reason, positive) => [
      ...ctInitiation(false),
      m(
        'camt.056',
        'payer_psp',
        'payee_psp',
        null,
        reason,
        1,
        'FI to FI payment cancellation request (recall)',
      ),
      positive
        ? m(
            'pacs.004',
            'payee_psp',
            'payer_psp',
            null,
            reason,
            3,
            'Positive answer: the funds are returned',
          )
        : m(
            'camt.029',
            'payee_psp',
            'payer_psp',
            null,
            'AC04',
            3,
            'Negative answer to the recall (resolution of investigation)',
          ),
    ],
    final: (reason, positive) =>
      positive
        ? { status: 'RETURNED', summary: `Recall (${reason}) accepted; funds returned.` }
        : {
            status: 'RECALL_REFUSED',
            summary: `Recall (${reason}) answered negatively (AC04); the funds stay with the payee.`,
          },
  },
  {
    name: 'sct_inst_accepted',
    path: 'SCT_INST',
    title: 'SEPA instant credit transfer, credited',
    description: "The instant transfer is confirmed within the scheme's 10 seconds.",
    reasons: [],
    flow: () => [
      ...ctInitiation(true),
      m(
        'pacs.002',
        'payee_psp',
        'payer_psp',
        'ACSC',
        null,
        0,
        'Positive confirmation (status assumed for illustration)',
      ),
    ],
    final: () => ({ status: 'ACSC', summary: 'Funds available to the payee within seconds.' }),
  },
  {
    name: 'sct_inst_rejected',
    path: 'SCT_INST',
    title: 'SEPA instant credit transfer, rejected',
    description: 'The instant transfer is rejected (timeout or account problem).',
    reasons: ['AB05', 'AB06', 'AC01', 'AC04', 'AC06'],
    flow: (reason) => [
      ...ctInitiation(true),
      m('pacs.002', 'payee_psp', 'payer_psp', 'RJCT', reason, 0, 'Negative confirmation'),
      m('pain.002', 'payer_psp', 'payer', 'RJCT', reason, 0, 'Customer payment status report'),
    ],
    final: (reason) => ({
      status: 'RJCT',
      summary: `Rejected with ${reason}; the payer keeps the funds.`,
    }),
  },
  {
    name: 'sdd_core_collected',
    path: 'SDD_CORE',
    title: 'SEPA Core direct debit, collected',
    description: 'The collection settles on its due date.',
    reasons: [],
    flow: () => [
      ...ddInitiation,
      m(
        'pacs.002',
        'debtor_psp',
        'creditor_psp',
        'ACSC',
        null,
        3,
        'Settled on the due date (status assumed for illustration)',
      ),
    ],
    final: () => ({ status: 'ACSC', summary: 'Collected from the debtor.' }),
  },
  {
    name: 'sdd_core_returned',
    path: 'SDD_CORE',
    title: 'SEPA Core direct debit, returned',
    description: "The debtor's PSP returns the collection after settlement.",
    reasons: ['AM04', 'AC04', 'AC06', 'MD07', 'MS02'],
    flow: (reason) => [
      ...ddInitiation,
      m('pacs.004', 'debtor_psp', 'creditor_psp', null, reason, 5, 'Payment return'),
    ],
    final: (reason) => ({ status: 'RETURNED', summary: `Returned with ${reason}.` }),
  },
  {
    name: 'sdd_core_refund',
    path: 'SDD_CORE',
    title: "SEPA Core direct debit, refunded on the debtor's request",
    description: 'Within 8 weeks of the debit the debtor asks for a refund, which needs no reason.',
    reasons: ['MD06'],
    flow: (reason) => [
      ...ddInitiation,
      m(
        'pacs.002',
        'debtor_psp',
        'creditor_psp',
        'ACSC',
        null,
        3,
        'Settled (status assumed for illustration)',
      ),
      m(
        'pacs.004',
        'debtor_psp',
        'creditor_psp',
        null,
        reason,
        30,
        'Refund, within the 8-week no-questions period',
      ),
    ],
    final: (reason) => ({ status: 'REFUNDED', summary: `Refunded to the debtor (${reason}).` }),
  },
  {
    name: 'sdd_core_reversal',
    path: 'SDD_CORE',
    title: 'SEPA Core direct debit, reversed by the creditor',
    description: 'The creditor finds the collection should not have been made and reverses it.',
    reasons: ['AM05'],
    flow: (reason) => [
      ...ddInitiation,
      m(
        'pacs.002',
        'debtor_psp',
        'creditor_psp',
        'ACSC',
        null,
        3,
        'Settled (status assumed for illustration)',
      ),
      m('pain.007', 'creditor', 'creditor_psp', null, reason, 4, 'Customer payment reversal'),
      m('pacs.007', 'creditor_psp', 'debtor_psp', null, reason, 4, 'Payment reversal'),
    ],
    final: (reason) => ({ status: 'REVERSED', summary: `Reversed by the creditor (${reason}).` }),
  },
  {
    name: 'sdd_b2b_collected',
    path: 'SDD_B2B',
    title: 'SEPA B2B direct debit, collected',
    description: 'The debtor has confirmed the mandate with its bank; the collection settles.',
    reasons: [],
    flow: () => [
      ...ddInitiation,
      m(
        'pacs.002',
        'debtor_psp',
        'creditor_psp',
        'ACSC',
        null,
        2,
        'Settled (status assumed for illustration)',
      ),
    ],
    final: () => ({ status: 'ACSC', summary: 'Collected; B2B collections carry no refund right.' }),
  },
  {
    name: 'sdd_b2b_rejected',
    path: 'SDD_B2B',
    title: "SEPA B2B direct debit, rejected by the debtor's PSP",
    description:
      "The debtor's PSP rejects the collection, e.g. because the debtor never confirmed the mandate with it.",
    reasons: ['MD01', 'AM04', 'AC04'],
    flow: (reason) => [
      ...ddInitiation,
      m('pacs.002', 'debtor_psp', 'creditor_psp', 'RJCT', reason, 1, 'Reject before settlement'),
      m(
        'pain.002',
        'creditor_psp',
        'creditor',
        'RJCT',
        reason,
        1,
        'Customer payment status report',
      ),
    ],
    final: (reason) => ({
      status: 'RJCT',
      summary: `Rejected with ${reason}; nothing is collected.`,
    }),
  },
];

export const scenarioByName: ReadonlyMap<string, ScenarioDefinition> = new Map(
  scenarioDefinitions.map((definition) => [definition.name, definition]),
);

/** The scenario a request gets when it names only a payment path (or nothing: SCT). */
export const defaultScenarioOf: Readonly<Record<PaymentPath, string>> = {
  SCT: 'sct_accepted',
  SCT_INST: 'sct_inst_accepted',
  SDD_CORE: 'sdd_core_collected',
  SDD_B2B: 'sdd_b2b_collected',
};
