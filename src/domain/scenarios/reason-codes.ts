/**
 * ISO 20022 external status reason codes the scenarios use, with the names published for SEPA R-transactions and
 * where each was read. Only codes with a public source here; the full ISO external code list is not shipped.
 */
export interface ReasonCode {
  readonly code: string;
  readonly name: string;
  readonly source: string;
}

const lemonwaySdd =
  'Lemonway, SEPA R-transactions (SDD reason codes, after the EPC guidance on reason codes): https://documentation.lemonway.com/v8.2/reference/sepa-error-codes';
const lemonwaySct =
  'Lemonway, SEPA Credit Transfers reason codes (after the EPC guidance): https://documentation.lemonway.com/v8.2/reference/money-0uts';
const domainNotes =
  'shared/notes/domain.md §3.3 (pacs.002 reason codes), after IBM FTM SCT Inst simulator reject codes';

export const reasonCodes: readonly ReasonCode[] = [
  { code: 'AC01', name: 'Incorrect Account Number', source: lemonwaySdd },
  { code: 'AC04', name: 'Account Closed', source: lemonwaySdd },
  { code: 'AC06', name: 'Blocked Account', source: lemonwaySdd },
  { code: 'AG01', name: 'Transaction Forbidden', source: lemonwaySct },
  { code: 'AM04', name: 'Insufficient Funds', source: lemonwaySdd },
  { code: 'AM05', name: 'Duplication', source: lemonwaySdd },
  {
    code: 'MD01',
    name: 'No Mandate',
    source:
      'finops_studio pain.002 decoder example (MD01 No Mandate): https://apify.com/finops_studio/iso20022-pain002-status-parser/examples/sepa-direct-debit-md01-ms02-return-xml-decoder',
  },
  { code: 'MD06', name: 'Refund Request By End Customer', source: lemonwaySdd },
  { code: 'MD07', name: 'End Customer Deceased', source: lemonwaySdd },
  { code: 'MS02', name: 'Not Specified Reason Customer Generated', source: lemonwaySdd },
  { code: 'MS03', name: 'Not Specified Reason', source: lemonwaySct },
  { code: 'CNOR', name: 'Creditor Bank Is Not Registered', source: lemonwaySct },
  { code: 'RR04', name: 'Regulatory Reason', source: lemonwaySct },
  { code: 'TECH', name: 'Technical Problem', source: lemonwaySct },
  {
    code: 'DUPL',
    name: 'Duplicate Payment',
    source:
      'camt.056 recall with reason DUPL (duplicate sending): https://gist.github.com/esaounkine/7321807',
  },
  { code: 'FF01', name: 'Invalid File Format', source: domainNotes },
  { code: 'RC01', name: 'Bank Identifier Incorrect', source: domainNotes },
  { code: 'AB05', name: 'Timeout Creditor Agent', source: domainNotes },
  { code: 'AB06', name: 'Timeout Instructed Agent', source: domainNotes },
];

export const reasonByCode: ReadonlyMap<string, ReasonCode> = new Map(
  reasonCodes.map((reason) => [reason.code, reason]),
);
