/**
 * Clarifications §11: the contract version. The OpenAPI document's info.version, the `ibanqa-api` schema a
 * fixture manifest references and the proto files' header all carry this one string.
 */
export const contractVersion = '2026-11-25';
