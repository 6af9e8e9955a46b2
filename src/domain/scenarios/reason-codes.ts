import { cite, documents, type Citation } from '../sources/citations.js';

/**
 * ISO 20022 external reason codes the scenarios use, with their ISO names. The codes and names are defined in the
 * ISO 20022 External Code Sets; the EPC reason-code guidance (EPC135-18 for SCT, EPC173-14 for SDD) says how the
 * SEPA schemes use them. Only the codes the scenarios need; the full code list is not shipped.
 */
export interface ReasonCode {
  readonly code: string;
  readonly name: string;
  readonly source: Citation;
}

const reason = (code: string, name: string): ReasonCode => ({
  code,
  name,
  source: cite(documents.isoExternalCodeSets),
});

export const reasonCodes: readonly ReasonCode[] = [
  reason('AC01', 'Incorrect Account Number'),
  reason('AC04', 'Closed Account Number'),
  reason('AC06', 'Blocked Account'),
  reason('AG01', 'Transaction Forbidden'),
  reason('AM04', 'Insufficient Funds'),
  reason('AM05', 'Duplication'),
  reason('MD01', 'No Mandate'),
  reason('MD06', 'Refund Request By End Customer'),
  reason('MD07', 'End Customer Deceased'),
  reason('MS02', 'Not Specified Reason Customer Generated'),
  reason('MS03', 'Not Specified Reason Agent Generated'),
  reason('CNOR', 'Creditor Bank Is Not Registered'),
  reason('RR04', 'Regulatory Reason'),
  reason('TECH', 'Technical Problem'),
  reason('DUPL', 'Duplicate Payment'),
  reason('FF01', 'Invalid File Format'),
  reason('RC01', 'Bank Identifier Incorrect'),
  reason('AB05', 'Timeout Creditor Agent'),
  reason('AB06', 'Timeout Instructed Agent'),
];

export const reasonByCode: ReadonlyMap<string, ReasonCode> = new Map(
  reasonCodes.map((code) => [code.code, code]),
);
