/** What the payer is shown for each VoP outcome of a credit transfer, and what the scenario assumes the payer does. */
export const vopOutcomes = ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'NOAP', 'REJECTED'] as const;
export type VopOutcome = (typeof vopOutcomes)[number];

export interface VopPresentation {
  /** The EPC VoP scheme code; REJECTED has none (the request was refused, no result exists). */
  readonly scheme_code: 'MTCH' | 'CMTC' | 'NMTC' | 'NOAP' | null;
  readonly payer_shown: string;
  readonly payer_decision: 'proceeds';
  readonly note: string;
}

export const vopPresentation: Readonly<Record<VopOutcome, VopPresentation>> = {
  MATCH: {
    scheme_code: 'MTCH',
    payer_shown: 'The name matches the account holder.',
    payer_decision: 'proceeds',
    note: 'No name is returned on a match.',
  },
  CLOSE_MATCH: {
    scheme_code: 'CMTC',
    payer_shown: "The name is close to the account holder's name, which is shown: {returned_name}.",
    payer_decision: 'proceeds',
    note: "Only a close match returns the holder's name (matchedName).",
  },
  NO_MATCH: {
    scheme_code: 'NMTC',
    payer_shown:
      'The name does not match the account holder. If you proceed, the money may go to someone else and you may not get it back.',
    payer_decision: 'proceeds',
    note: 'The payer may still proceed; liability then shifts to the payer (assumed decision for illustration).',
  },
  NOAP: {
    scheme_code: 'NOAP',
    payer_shown: 'The name could not be checked.',
    payer_decision: 'proceeds',
    note: 'Verification not possible (e.g. PSP unreachable, account type not supported, timeout).',
  },
  REJECTED: {
    scheme_code: null,
    payer_shown: 'The name check failed; check the payee details.',
    payer_decision: 'proceeds',
    note: 'The VoP request itself was refused (an EPC VOP API error such as FORMAT_ERROR), so there is no scheme outcome; it is never a NO_MATCH. The payer proceeds (assumed).',
  },
};
