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
  /** ValidateStream: inbound batches read ahead while earlier ones run (in order). 8 batches of at most
   *  1,000 IBANs (~200 KB) keep the pipeline full without letting a fast client fill server memory. */
  streamMessagesQueuedMax: 8,

  // ---- Statement review ----
  /** Spec "Bounds": a statement upload is at most 8 MB (8 x 1024 x 1024 bytes); reading stops at the cap. */
  statementFileBytesMax: 8 * 1024 * 1024,
  /** Multipart overhead around the file (boundaries, part headers, the two text fields) allowed on top of the
   *  file cap before the body is refused as oversize without being read further. */
  statementMultipartOverheadBytesMax: 64 * 1024,
  /** expected_bank / expected_bank_slug: a bank name, as the targeting and search bounds (120). */
  statementExpectedBankCharsMax: 120,
  /** Multipart parts per upload: one file and the two optional fields, with room for clients that send extra
   *  empty fields; more parts than this is not an upload of this API. */
  statementMultipartPartsMax: 8,
  /** PDF pages analysed: a monthly statement is a few pages; 50 covers a busy business account and bounds the
   *  text extraction of one review to about 0.5 s (bench/RESULTS.md). A longer file fails as too_many_pages. */
  statementPdfPagesMax: 50,
  /** Image pixels: an A4 page scanned at 600 dpi is 4,961 x 7,016 = 34.8 MP; 40 MP admits it and refuses a
   *  decompression bomb before a byte of it is decoded (sharp limitInputPixels). */
  statementImagePixelsMax: 40_000_000,
  /** Images are normalised to at most this width before OCR: tesseract reads body text well at 1,600 to 2,500 px
   *  page width, and its time grows with the pixel count. */
  statementOcrWidthMax: 2_400,
  /** Wall time of one analysis in the pool; past it the worker is stopped and the review fails as
   *  analysis_timeout (refunded). An image page takes about 1 to 3 s here, a text PDF well under 1 s. */
  statementAnalysisMsMax: 60_000,
  /** Analyses running in the pool at once: one, so a burst of uploads queues on the main thread and the other
   *  pool thread stays free for the rest of the API (bench/statements.bench.ts). */
  statementAnalysesConcurrent: 1,
  /** Reviews waiting for analysis; beyond it an upload is answered 503 overloaded (nothing debited). */
  statementQueueMax: 1_000,
  /** Extracted transactions kept in a report: a long statement still yields a bounded report. */
  statementTransactionsMax: 2_000,
  /** Signals of one kind listed per report (each with its evidence); the count says how many there were. */
  statementSignalsPerCodeMax: 20,
  /** Evidence text quoted from the document, per signal: enough to find the line, no more. */
  statementEvidenceCharsMax: 160,
  /** Reviews expired per sweep step: bounded work per tick; the sweeper repeats until none are left. */
  statementSweepBatch: 100,

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

// ---------------------------------------------------------------------------------------------------------
// Synthetic profiles (/profile, /ai-profile, bulk datasets with include_profiles)
// ---------------------------------------------------------------------------------------------------------

export const profileLimits = {
  /** Spec defaults: age_min 18, age_max 80. */
  ageMinDefault: 18,
  ageMaxDefault: 80,
  /** Adults only (the spec's default floor), and no one older than the oldest documented human lifespans. */
  ageFloor: 18,
  ageCeiling: 120,
  /** additional_info is a free-form object: 2 KiB of JSON is room for a few hints and keeps prompts small. */
  additionalInfoBytesMax: 2_048,
  /** additional_info keys are hint names, not data: 64 characters. */
  additionalInfoKeyCharsMax: 64,
  /** Nesting depth of additional_info (an object of objects of ... ): 4 levels of hints, no deep structures. */
  additionalInfoDepthMax: 4,
  /** Same bound as the generate seed. */
  seedCharsMax: 100,
  /** Bank-context strings (swift_code, bank_name, bank_city) as the targeting strings. */
  bankContextCharsMax: 120,
  /** An external provider answering later than this is a 503 (a slow model stalls one request, not the service). */
  externalTimeoutMsDefault: 8_000,
  /** Consecutive external failures that open the circuit, and how long it stays open before one trial call. */
  breakerFailuresToOpen: 3,
  breakerOpenMs: 30_000,
  /** The provider's answer is read up to this many bytes; a profile is well under 4 KiB of JSON. */
  externalResponseBytesMax: 64 * 1024,
} as const;

assert(profileLimits.ageFloor <= profileLimits.ageMinDefault && profileLimits.ageMaxDefault <= profileLimits.ageCeiling, 'defaults inside the age bounds');
// ---- Fixture manifests, payment scenarios and the VoP name-matching benchmark ----
export const artifactLimits = {
  /** Spec "Bounds": a fixture manifest holds 1 to 500 fixtures. */
  manifestFixturesMax: 500,
  /** fixture_id, seed and registry_snapshot: identifiers a harness pins; 128 fits a UUID, a path-like name or a hash. */
  manifestIdCharsMax: 128,
  /** A fixture's IBAN text: the longest IBAN is 34 characters; 64 leaves room for spaces and matches POST /validate. */
  manifestIbanCharsMax: 64,
  /** Client-declared sources and schema references: a manifest names a handful; 50 keeps a body well under the cap. */
  manifestReferencesMax: 50,
  /** Text of one client-declared source or schema field (licence text, URL): 512 characters. */
  manifestReferenceCharsMax: 512,
  /** expected_outcomes: labels such as "valid" or a test id; 100 labels of 64 characters. */
  manifestOutcomesMax: 100,
  manifestOutcomeCharsMax: 64,
  /** Payment scenario seed and bank_target: as the other seeds and targeting strings. */
  scenarioSeedCharsMax: 80,
  scenarioTargetCharsMax: 120,
  /** Amount as decimal text: 18 integer digits and the currency's decimals are far beyond any scheme maximum. */
  scenarioAmountCharsMax: 24,
  /** VoP benchmark rows per compile: the default matrix (every base name x every perturbation) fits. */
  vopRowsMax: 1_000,
  vopRowsDefault: 200,
  vopSeedCharsMax: 80,
  /** Labels submitted for scoring: one per row of the largest matrix. */
  vopScoreLabelsMax: 1_000,
  /** A submitted name in a scored row: VoP names are Max140Text in the EPC API. */
  vopNameCharsMax: 140,
} as const;

assert(artifactLimits.manifestFixturesMax * (artifactLimits.manifestIbanCharsMax + 120) < limits.httpJsonBodyBytesMax, 'a full manifest request fits the JSON body cap');
assert(artifactLimits.vopScoreLabelsMax >= artifactLimits.vopRowsMax, 'every row of a compiled matrix can be scored');
assert(limits.statementAnalysesConcurrent >= 1, 'at least one analysis runs');

// ---- REST front threads (IBANQA_HTTP_THREADS; src/transport/http/threads/) ----
export const frontThreadLimits = {
  /** Front threads: each is a uWS app with its own data maps and LMDB readers; beyond 16 memory and readers dominate (as the pool). */
  threadsMax: 16,
  /** A stopping front thread waits this long for its requests in flight to settle before it closes its connections. */
  drainMs: 10_000,
  /** A front thread must be listening within this time of being started (it opens the registry read-only and builds its bank maps). */
  startMs: 60_000,
} as const;
