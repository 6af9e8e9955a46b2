/**
 * First two digits of the sort codes of UK clearing banks, by the bank code (BIC prefix) that GB IBANs carry at
 * BBAN 1-4. Only banks whose allocation is listed in the public source (sources.ts, sortCodeAllocation) and whose
 * registry entry names that bank are here; the SWIFT registry's example (NWBK 601613) agrees with NWBK's 60.
 * Other bank codes draw a prefix that none of these banks holds.
 */
export const gbSortCodePrefixes: ReadonlyMap<string, readonly string[]> = new Map([
  ['ABBY', ['09']], // Santander UK
  ['BARC', ['20']], // Barclays Bank
  ['BUKB', ['20']], // Barclays Bank UK
  ['CLYD', ['82']], // Clydesdale Bank
  ['COUT', ['18']], // Coutts & Co
  ['CPBK', ['08']], // The Co-operative Bank
  ['DABA', ['95']], // Northern Bank (Danske Bank)
  ['HBUK', ['40']], // HSBC UK Bank
  ['HLFX', ['11']], // Halifax
  ['LOYD', ['30']], // Lloyds Bank
  ['MIDL', ['40']], // HSBC Bank
  ['NAIA', ['07']], // Nationwide Building Society
  ['NWBK', ['60']], // National Westminster Bank
  ['RBOS', ['83', '16']], // The Royal Bank of Scotland
  ['TSBS', ['77', '87']], // TSB Bank
]);
