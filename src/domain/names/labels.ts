/** The four scheme outcomes of EPC Verification of Payee (MTCH, CMTC, NMTC, NOAP), as the spec names them. */
export const vopLabels = ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'NOAP'] as const;
export type VopLabel = (typeof vopLabels)[number];
