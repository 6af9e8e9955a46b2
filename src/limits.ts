import { assert } from './assert.js';

/**
 * Every bound of the service, named once with its reason. Both sides check them: the request
 * schemas (and so the OpenAPI document) are built from these numbers, and the domain re-asserts them.
 */
export const limits = {
  /** Spec "Bounds": generate quantity 1 to 100 (the older "up to 1000" statement does not govern). */
  generateQuantityMax: 100,
  /** Spec: validate takes 1 to 100 IBANs with a key. */
  validateIbansMax: 100,
  /** Spec endpoint rule 2: keyless validate, at most 10 IBANs per request ... */
  keylessIbansPerRequestMax: 10,
  /** ... and 100 per day per client IP (UTC day). */
  keylessIbansPerDayMax: 100,
  /** An IBAN is at most 34 characters; 34 plus spaces between print groups of four is 42. We allow 64 so
   *  sloppy spacing still yields a row verdict, and refuse longer strings as a bad request. */
  ibanInputCharsMax: 64,
  /** Spec: test-cases quantity 1 to 25, default 20. */
  testCasesQuantityMax: 25,
  testCasesQuantityDefault: 20,
  /** Spec endpoint rule 5: free keys receive preview-sized batches; our preview is 5 cases. */
  testCasesFreePreviewMax: 5,
  /** Spec: test-cases and bulk-dataset seeds at most 80 characters. */
  datasetSeedCharsMax: 80,
  /** Spec is silent on the generate seed; 100 matches the US routing seed bound (1 to 100). */
  generateSeedCharsMax: 100,
  /** Spec: bulk dataset default 10 rows; the largest plan cap (Pro/Enterprise) is 10,000 rows. */
  bulkDatasetQuantityDefault: 10,
  bulkDatasetRowsMax: 10_000,
  /** Country names are short; 64 covers the longest registry name with room and stops abuse early. */
  countryInputCharsMax: 64,
  /** Targeting strings (city, bank name, BIC): 120 as the search query bound. */
  targetingCharsMax: 120,
  /** JSON bodies: the largest request the spec allows is a lookup/export of 1,000 identifiers with 128-character
   *  values and 40-character types: 1,000 x (128 + 40 + 32 bytes of JSON punctuation and keys) = 200,000 bytes,
   *  with every character escaped as \uXXXX still far less than 1 MiB. 256 KiB fits the unescaped worst case
   *  and refuses anything that is not a request of the spec (asserted in src/ops/registry-limits.ts). */
  httpJsonBodyBytesMax: 256 * 1024,
  /** Spec §7 of clarifications: a client X-Request-ID of 1 to 128 printable ASCII characters is echoed. */
  requestIdCharsMax: 128,
  /** ValidateStream: IBANs per inbound batch message; 1,000 keeps one batch's verdicts under 200 KB. */
  streamBatchIbansMax: 1_000,
  /** GenerateStream: rows per stream; 100,000 rows is about 10 MB, a large harness fixture, and all are
   *  reserved up front so the stream cannot outrun the caller's credits. */
  generateStreamRowsMax: 100_000,
  /** GenerateStream: rows per outbound message. */
  generateStreamChunkRows: 1_000,

  // --- HTTP front: request heads (see RELIABILITY.md, "HTTP parser") ---
  /** A request head (request line + headers) up to 16 KiB is served: room for large cookies and bearer
   *  tokens (nginx's default large_client_header_buffers is 4 x 8 KiB). uWS 20.57.0 reads this bound from
   *  UWS_HTTP_MAX_HEADERS_SIZE, set before its binary loads; the trufflesuite 20.30.0 parser has a fixed
   *  4 KiB buffer for heads that arrive in more than one read. */
  httpHeadBytesServed: 16 * 1024,
} as const;

assert(limits.keylessIbansPerRequestMax <= limits.validateIbansMax, 'keyless cap within the keyed cap');
assert(limits.keylessIbansPerRequestMax <= limits.keylessIbansPerDayMax, 'a request fits a day');
assert(limits.testCasesFreePreviewMax <= limits.testCasesQuantityMax, 'preview within the full batch');
assert(
  limits.validateIbansMax * (limits.ibanInputCharsMax + 3) < limits.httpJsonBodyBytesMax,
  'a full validate body fits the JSON body cap',
);
assert(limits.generateStreamRowsMax % limits.generateStreamChunkRows === 0, 'stream chunks tile the stream');
