import { assert } from './assert.js';

/**
 * Every bound of the service, named once with its reason. Both sides check them: the request
 * schemas (and so the OpenAPI document) are built from these numbers, and the domain re-asserts them.
 * The shared bounds are flat names on `limits`; the bounds of one capability are a section of it
 * (`limits.registry`, `limits.usRouting`, `limits.accounts`, ...), defined first because flat names and
 * other sections refer to them. A bound that is another bound for the same reason refers to it by name.
 */

const dayMs = 24 * 60 * 60 * 1000;

/** Caches in front of LMDB that another process may change underneath. */
const caches = {
  /** How long such a cache may answer from before another process's change: `ibanqa keys revoke` and
   *  `ibanqa registry import` run in their own processes and cannot clear this one's caches, so a revoked key
   *  keeps working, and a registry import stays unseen by the bank and routing directories, at most this long;
   *  the hot paths stay Map lookups (one LMDB read per key or per directory per 5 s). */
  staleMsMax: 5_000,
  /** Raw API keys one key cache holds (src/accounts/auth-cache.ts: the main thread's, each front thread's). Only
   *  well-formed keys that authenticated are held, never a refused one, so what clients send cannot grow it; past
   *  this many live keys on one thread the least recently refreshed is dropped and costs one lookup when it returns. */
  authKeysMax: 10_000,
} as const;

/** API keys, credits, idempotency, the keyless allowance and watches (the accounts environment). */
const accounts = {
  /** Spec: a request_id lives 24 hours; an idempotent result replays for as long. */
  idempotencyTtlMs: dayMs,
  /** Expired idempotency records removed per new claim: bounded work per request, and it outpaces the creation rate. */
  idempotencySweepBatch: 16,
  /** How long a usage counter may wait in memory before it is written. Writing on every request meant one LMDB
   *  transaction (and, with overlappingSync, one fsync) per request; bench/registry-load.ts measured the sequential
   *  lookup at p50 0.27 vs 0.22 ms and p99 0.55-0.7 vs 0.37-0.49 ms with and without that write. Memory is the
   *  source of truth while running, so nothing reads stale counts; a crash loses at most this window (in the
   *  customer's favour), and close() and flushWrites() write at once. */
  usageWriteDelayMs: 100,
  /** Keyless clients tracked per day. Bounds memory (~100 B each, so ~10 MB) and the LMDB sub-database against a
   *  client spraying source addresses. When full, a NEW client is refused for the rest of the day rather than
   *  evicting someone: eviction would hand out fresh free quota to exactly that attacker, while refusing only
   *  affects the free keyless mode (keyed requests are unaffected). */
  keylessClientsTrackedMax: 100_000,
  /** OUR DECISION (spec: "Numeric plan limits for registry watchlists: not shown"): enough for a bank list, bounded per key. */
  watchesPerKeyMax: 1_000,
  /** Key labels are operator notes shown in `keys list`; long enough for an email address or ticket reference. */
  keyLabelCharsMax: 120,
} as const;

/** Credit leases (src/accounts/meter-leased.ts): credits a node holds from the shared ledger and spends without a
 *  round trip per reservation. Every leased credit is reserved in the ledger, so these bounds trade how many credits
 *  may sit idle on a node against how often a node asks the ledger; none of them can make a node overspend. */
const leases = {
  /** A lease not renewed for this long belongs to a dead node: any node (or the next start) returns its unspent
   *  credits. Live holders renew every ttlMs / renewalsPerTtl, so a holder must stall longer than two thirds of it
   *  before it loses a lease; 30 s keeps the credits of a killed node unavailable for at most that long.
   *  IBANQA_LEASE_TTL_MS overrides it (tests shorten it). */
  ttlMs: 30_000,
  /** The longest TTL an operator may configure: a dead node's credits unavailable for at most ten minutes. */
  ttlMsMax: 600_000,
  /** Renewals (and sweeps of expired leases) per TTL: three, so two lost in a row still leave the lease alive. */
  renewalsPerTtl: 3,
  /** Smallest top-up asked for: one request's worth. */
  sizeMin: 1,
  /** The cap of a top-up while the key has little left: with three nodes at most 3 x 64 credits are held by nodes
   *  that do not need them, and a Starter key (200 profiles) still spreads over several nodes. */
  sizeMax: 64,
  /** With more left, a top-up may take up to this share of what the key had unheld at the lease's last grant (and a
   *  key without a cap is bounded by its rate alone): a 100-IBAN /validate spends 100 credits of each of two kinds,
   *  so a fixed 64 made every request a grant, and at thousands of requests per second every node queued on the
   *  key's one ledger row. One sixteenth keeps sixteen busy holders from emptying the key between them. */
  shareMax: 1 / 16,
  /** A top-up asks for the credits the key spent on this node in about this long (its recent rate), so a busy
   *  key asks the ledger about once per period of this length rather than once per request. */
  refillMs: 1_000,
  /** When fewer credits than this stay unheld after a grant, the node holds exactly what each request needs and
   *  gives back whatever its requests did not spend: the last credits go to whichever node asks first, exactly
   *  once, rather than sitting in another node's lease. Equal to sizeMax: above it, one top-up cannot strand
   *  more than the key then has left. */
  exactBelow: 64,
  /** How old the balance a front thread was last sent for a key (with a grant, spend or return of its leases) may be
   *  when it answers a request of that key that spent nothing (a replay) with X-RateLimit headers; older, it asks the
   *  main thread. A request that spent credits reads the balance its own spend's reply carried, so this bounds only
   *  the headers of free answers: one second, shorter than any client's retry loop. */
  balanceSnapshotMs: 1_000,
} as const;

/** The shared PostgreSQL state (src/postgres/), when IBANQA_DATABASE_URL is set. */
const postgres = {
  /** Connections of a node's one pool (src/postgres/pool.ts), which the state ports, the credit leases and the
   *  statement reviews share. A request holds one for a single statement (a lease grant, an idempotency claim, a
   *  keyless count), the spends' group commit one at a time, the analysis queue one per claim: a handful serve
   *  a node, and 10 leave room for a burst. Budget against PostgreSQL 15's default max_connections (100): a node
   *  holds at most these 10, the registry follower's LISTEN connection and, while it applies a publication, its
   *  child process's one, so 12; the test suite runs two files at once, so two three-node clusters take 72 and
   *  leave 28 for the tests' own connections and CLI commands. */
  poolConnectionsMax: 10,
  /** How long a request waits for a free connection before failing (a database that stopped answering must
   *  fail requests, not queue them without end). */
  connectMsMax: 10_000,
  /** An idempotent run a node leads and has not completed (nor abandoned) after this long is taken over by
   *  the next claim: the node died mid-run. Far above the slowest idempotent run (a 1,000-row US routing run
   *  takes well under a second), short enough that a retry after a crash does not wait long. */
  idempotencyLeaderMsMax: 60_000,
  /** A claim whose leader runs on another node polls for its result: first after this long ... */
  idempotencyPollMsMin: 5,
  /** ... then doubling up to this: a follower learns the result within ~50 ms without hammering the row. */
  idempotencyPollMsMax: 50,
} as const;

/** Bank-intelligence and registry endpoints, and the registry store and importers behind them. */
const registry = {
  /** Spec "Bounds": BankIdentifier value at most 128 characters ... */
  identifierValueCharsMax: 128,
  /** ... and type at most 40. */
  identifierTypeCharsMax: 40,
  /** Spec: lookup identifiers up to 1000 ... */
  lookupIdentifiersMax: 1_000,
  /** ... and up to 25 matches per identifier. */
  matchesPerIdentifierMax: 25,
  /** Spec: search query 2 to 120 characters. */
  searchQueryCharsMin: 2,
  searchQueryCharsMax: 120,
  /** Spec: search limit 1 to 1000, default 25. */
  searchLimitMax: 1_000,
  searchLimitDefault: 25,
  /** Spec: changes limit 1 to 1000, default 100. */
  changesLimitMax: 1_000,
  changesLimitDefault: 100,
  /** Source ids, record types and statuses are short words; 64 leaves room and refuses junk early. */
  filterCharsMax: 64,
  /** Record keys: the longest real one is a GLEIF relationship key (two LEIs and a type, about 80 characters). */
  recordKeyCharsMax: 128,
  /** Watch ids are 'wl_' + 20 hex characters; anything much longer is not one. */
  watchIdCharsMax: 64,
  /** Spec: export queries Business 250, Enterprise 1,000. */
  exportQueriesBusiness: 250,
  exportQueriesEnterprise: 1_000,
  /** OUR DECISION (spec silent on plans below Business, which do have an export allowance): 100 queries. */
  exportQueriesBelowBusiness: 100,
  /** record_id is an integer of at least 1 (spec); ids are assigned from 1 up. */
  recordIdMin: 1,
  /** Records read under one LEI or BIC index key when linking a record to its parent or a bank to its GLEIF
   *  entity: one entity has one LEI record, so a handful is plenty; 25 as the matches per identifier. */
  linkCandidatesMax: 25,
  /** Candidates examined per search at most: bounds the worst case (a common word and a filter nothing passes). */
  searchScanMax: 200_000,
  /** Change events read per source to find removed bank codes (once per registry version): a full Bundesbank
   *  release removes a few hundred records, FedACH a few thousand; 100,000 covers years of releases. */
  removalEventsMax: 100_000,
  /** Index entries counted per query word to find the rarest one; past this a word is "common" and length decides. */
  selectivityProbeMax: 1_000,
  /** Decoded records kept per registry version: about 5 KB each, so 50,000 is at most ~250 MB and holds a typical
   *  registry's hot records. Past the bound the cache starts over rather than track recency. */
  recordCacheEntriesMax: 50_000,
  /** `registry sync`: the largest publisher file is a few tens of MB; anything past this is not one. */
  downloadBytesMax: 256 * 1024 * 1024,
  /** `registry sync`: a stalled publisher server must not hang the operator's terminal or cron job. */
  downloadTimeoutMs: 120_000,
  /** Largest zip part inflated: a sheet of 2,917 rows is ~2.7 MB; the cap stops a zip bomb well before memory does. */
  zipEntryBytesMax: 64 * 1024 * 1024,
  /** A node with a database URL asks PostgreSQL for a newer published registry this often, besides LISTEN/NOTIFY,
   *  which tells it at once but loses what is sent while its connection is down. Nodes must serve a publication
   *  within 10 s: a 2 s poll leaves the rest for the apply (a child process, about 1-3 s with tsx on 2 cores). A
   *  poll is one index read (max of a primary key). */
  publicationPollMs: 2_000,
  /** After an apply failed (a registry that diverged from the published chain), the same target is retried this
   *  late, not on every poll: the failure repeats until an operator acts, and each try starts a process. */
  publicationRetryMs: 60_000,
  /** A child process applying publications that has not finished by then is killed: the largest real publication
   *  (a full GLEIF golden copy) is minutes of import, anything past this is stuck. */
  publicationApplyTimeoutMs: 30 * 60 * 1000,
} as const;

/** The /us/routing operations. */
const usRouting = {
  /** Spec: synthetic generation is free up to 10 rows per request on a free key ... */
  generateFreeRowsMax: 10,
  /** ... and up to 750 on paid keys (the largest targeted run, so one bound covers both). */
  generatePaidRowsMax: 750,
  /** Spec: seeds are 1 to 100 characters. */
  seedCharsMax: 100,
  /** Spec: targets limit 1-100, default 25. */
  targetsLimitMax: 100,
  targetsLimitDefault: 25,
  /** Offsets beyond any directory's size (FedACH + Fedwire hold ~26,000 rows) are refused, not scanned. */
  targetsOffsetMax: 1_000_000,
  /** Search text: the same bound as every other free-text query of the service. */
  searchQueryCharsMax: registry.searchQueryCharsMax,
  /** check-list and quote/run routing_numbers: 10 on free keys ... */
  listFreeMax: 10,
  /** ... and 1,000 on paid keys (also the domain's list bound): the largest count the spec uses elsewhere
   *  (Enterprise export: 1,000 identifier queries; changes: limit <= 1000); it keeps one request's work well
   *  under 5 ms and its JSON response near 250 KB. */
  listPaidMax: 1_000,
  /** A path or list value longer than this is not a routing number typed by a person: 400, not a row verdict. */
  routingInputCharsMax: 32,
  /** Spec: targeted runs of up to 150 rows on Pro ... */
  targetedProRowsMax: 150,
  /** ... and up to 750 on Business, Enterprise (and the operator's unlimited plan). */
  targetedBusinessRowsMax: 750,
  /** Spec: a request_id lives 24 hours from the Unix milliseconds it carries ... */
  requestIdLifetimeMs: accounts.idempotencyTtlMs,
  /** ... and may run ahead of the server clock by at most 5 minutes (client clock skew). */
  requestIdFutureSkewMs: 5 * 60 * 1000,
  /** A full profile replays for the same key, seed and target for 24 hours (the idempotency store's TTL). */
  profileReplayMs: accounts.idempotencyTtlMs,
} as const;

/** Operator settings (environment variables) and their ceilings. */
const config = {
  /** Worker threads: a pool sized to the machine, at most 16 (beyond that LMDB readers and memory dominate). */
  poolThreadsMax: 16,
  /** A pool thread idle this long exits, and a thread's OCR engine unused this long is released. A thread holds
   *  about 100 MB (its own copy of the op graph), an OCR engine about 90 MB more, and most requests never use
   *  them (bench/RESULTS.md "Memory"); starting a thread again costs the next pooled request seconds (6-8 s on the
   *  busy 2-core VM, README "Memory"; an OCR engine about 0.4 s more). A minute keeps them warm through a burst of
   *  large requests and hands the memory back soon after. */
  poolIdleMsDefault: 60_000,
  /** An operator who wants threads kept warm sets up to a day; longer is the same as never for a test service. */
  poolIdleMsMax: dayMs,
  /** Longest AI provider timeout an operator may set: beyond a minute a client has long given up. */
  aiTimeoutMsMax: 60_000,
  /** Statement retention at most 30 days: a review tool is not an archive. */
  statementRetentionSecondsMax: 30 * 24 * 60 * 60,
} as const;

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
  generateSeedCharsMax: usRouting.seedCharsMax,
  /** Spec: bulk dataset default 10 rows; the largest plan cap (Pro/Enterprise) is 10,000 rows. */
  bulkDatasetQuantityDefault: 10,
  bulkDatasetRowsMax: 10_000,
  /** Country names are short; 64 covers the longest registry name with room and stops abuse early. */
  countryInputCharsMax: 64,
  /** Targeting strings (city, bank name, BIC): 120 as the search query bound. */
  targetingCharsMax: registry.searchQueryCharsMax,
  /** JSON bodies: the largest request the spec allows is a lookup/export of 1,000 identifiers with 128-character
   *  values and 40-character types: 1,000 x (128 + 40 + 32 bytes of JSON punctuation and keys) = 200,000 bytes,
   *  with every character escaped as \uXXXX still far less than 1 MiB. 256 KiB fits the unescaped worst case
   *  and refuses anything that is not a request of the spec (asserted below). */
  httpJsonBodyBytesMax: 256 * 1024,
  /** A REST request body (JSON or a statement upload) must have arrived this long after its head, else the answer
   *  is 408 and the connection closes. Why 6 s: uWS closes a connection whose body is still incomplete 8 to 12 s
   *  after the head (its 10 s HTTP timeout on 4 s ticks, not re-armed by body data: measured here with a
   *  1 byte/100 ms and a 10 KB/s trickle), without a response; answering before that tells a client it was slow,
   *  not that the service died. Measured on loopback, the largest body (an 8 MiB statement) takes under 0.1 s. */
  httpBodyDeadlineMs: 6_000,
  /** How often pending body reads are checked against httpBodyDeadlineMs: the answer leaves at most this late. */
  httpBodyDeadlineSweepMs: 500,
  /** Spec §7 of clarifications: a client X-Request-ID of 1 to 128 printable ASCII characters is echoed. */
  requestIdCharsMax: 128,
  /** ValidateStream: IBANs per inbound batch message; 1,000 keeps one batch's verdicts under 200 KB. */
  streamBatchIbansMax: 1_000,
  /** GenerateStream: rows per stream; 100,000 rows is about 10 MB, a large harness fixture, and all are
   *  reserved up front so the stream cannot outrun the caller's credits. */
  generateStreamRowsMax: 100_000,
  /** GenerateStream: rows per outbound message. */
  generateStreamChunkRows: 1_000,
  /** ValidateStream: inbound batches read ahead while earlier ones run (in order). 16 batches of at most
   *  1,000 IBANs (~200 KB each, ~3 MB) keep the pipeline full without letting a fast client fill server memory.
   *  Measured with the 1 MiB receive window, one stream, disk durability (6 alternations, medians):
   *  8 -> 16 batches raised 1.19M to 1.46M IBANs/s, as more batches share each durable commit. */
  streamMessagesQueuedMax: 16,

  // ---- Statement review ----
  /** Spec "Bounds": a statement upload is at most 8 MB (8 x 1024 x 1024 bytes); reading stops at the cap. */
  statementFileBytesMax: 8 * 1024 * 1024,
  /** Multipart overhead around the file (boundaries, part headers, the two text fields) allowed on top of the
   *  file cap before the body is refused as oversize without being read further. */
  statementMultipartOverheadBytesMax: 64 * 1024,
  /** POST /mcp bodies: a JSON-RPC message carrying the largest tool call, a statement upload of 8 MiB in base64
   *  (4 bytes per 3: 10.67 MiB) with its text fields and envelope; 12 MiB admits it (asserted below) and no more. */
  mcpBodyBytesMax: 12 * 1024 * 1024,
  /** A POST /mcp answer is an event stream open while the tool runs: a comment line this often keeps the connection
   *  from looking idle to uWS, which closes an HTTP connection after 10 s without traffic (see httpBodyDeadlineMs);
   *  the MCP SDK's own default, 15 s, is past that. */
  mcpKeepAliveMs: 4_000,
  /** expected_bank / expected_bank_slug: a bank name, as the targeting and search bounds (120). */
  statementExpectedBankCharsMax: registry.searchQueryCharsMax,
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
  /** A node's claim on a review it analyses (PostgreSQL queue): the analysis bound plus 30 s for reading the
   *  upload and writing the outcome. A node that dies mid-analysis holds the review no longer than this; then
   *  another node claims it again. Judged on the database's clock, so node clocks need not agree. */
  statementClaimLeaseMs: 60_000 + 30_000,
  /** Claims of one review before it fails as analysis_error (refunded) unanalysed: a claim that ends without an
   *  outcome means its node died, and a document that kills every node analysing it must not take down the
   *  cluster one node at a time. Three tolerates two unrelated deaths (a deploy, an OOM caused elsewhere). */
  statementClaimsMax: 3,
  /** How often an idle node looks for reviews other nodes accepted: an upload on one node waits at most this
   *  long for a free node elsewhere; each look is one indexed query. */
  statementClaimPollMs: 1_000,
  /** A stored upload without a review record is an orphan only once it is this old: on several nodes another node
   *  may be between storing an upload and recording its review (a few milliseconds), and an hour is far past that. */
  statementOrphanUploadMs: 60 * 60 * 1_000,

  // --- HTTP front: request heads (see RELIABILITY.md, "HTTP parser") ---
  /** A request head (request line + headers) up to 16 KiB is served: room for large cookies and bearer
   *  tokens (nginx's default large_client_header_buffers is 4 x 8 KiB). uWS 20.57.0 reads this bound from
   *  UWS_HTTP_MAX_HEADERS_SIZE, set before its binary loads; the trufflesuite 20.30.0 parser has a fixed
   *  4 KiB buffer for heads that arrive in more than one read. */
  httpHeadBytesServed: 16 * 1024,

  // --- gRPC front ---
  /** Largest inbound gRPC message: grpc-js's own default of 4 MiB, stated here; the largest request of the spec
   *  (1,000 identifiers, about 200 KB; see httpJsonBodyBytesMax) fits many times over. */
  grpcMessageBytesMax: 4 * 1024 * 1024,
  /** Nesting the proto declares is at most a few levels; 32 stops a crafted message from recursing deep. */
  grpcNestingMax: 32,
  /** HTTP/2 receive window of the gRPC server, per stream and per connection: 1 MiB, grpc-java's Netty server
   *  default. Node's 64 KiB lets a client have about 2.5 unread 1,000-IBAN batches per connection, which bounded
   *  one ValidateStream (src/transport/grpc/receive-window.ts); a connection buffers at most this much unread. */
  grpcReceiveWindowBytes: 1024 * 1024,
  /** Calls open at once on one gRPC connection (SETTINGS_MAX_CONCURRENT_STREAMS). Node's and grpc-js's default is
   *  2^32 - 1, so one connection could open streams without end, each holding up to streamMessagesQueuedMax
   *  decoded batches. 100 is the floor RFC 9113 §6.5.2 recommends so as not to limit parallelism; an HTTP/2
   *  client queues calls beyond it until one ends (a grpc-js channel does), and a peer that ignores it has the
   *  extra streams refused by the HTTP/2 layer. */
  grpcConcurrentStreamsMax: 100,

  // --- IBAN operations, beyond the request bounds above ---
  /** /calculate BBAN components are short: the longest BBAN is 30 characters. */
  bbanComponentCharsMax: 30,
  /** Banks considered per generation target; the row rng picks among them. A bank rarely has more codes. */
  targetCandidatesMax: 1_000,
  /** City names through the GeoNames gazetteer (src/domain/profiles/place-names.ts). */
  gazetteer: {
    /** Countries whose name index a thread keeps (the least recently used goes first). One index holds a
     *  country's places of 1,000+ inhabitants with all their Latin-script names (Germany about 30,000 keys, the
     *  United States 50,000, the most). Targeting needs the few countries whose registry knows cities, and the
     *  quality score reads the index only for a city that is not the gazetteer's own name of a place. */
    countryIndexesMax: 16,
  },
  /** JSON row rendering caches key fragments per distinct key; rows have a few dozen keys at most, so bound it generously. */
  renderKeyFragmentsMax: 10_000,

  caches,
  accounts,
  postgres,
  leases,
  registry,
  usRouting,
  config,
} as const;

assert(
  limits.keylessIbansPerRequestMax <= limits.validateIbansMax,
  'keyless cap within the keyed cap',
);
assert(limits.keylessIbansPerRequestMax <= limits.keylessIbansPerDayMax, 'a request fits a day');
assert(
  limits.testCasesFreePreviewMax <= limits.testCasesQuantityMax,
  'preview within the full batch',
);
assert(
  limits.validateIbansMax * (limits.ibanInputCharsMax + 3) < limits.httpJsonBodyBytesMax,
  'a full validate body fits the JSON body cap',
);
assert(
  limits.generateStreamRowsMax % limits.generateStreamChunkRows === 0,
  'stream chunks tile the stream',
);

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
  seedCharsMax: limits.generateSeedCharsMax,
  /** Bank-context strings (swift_code, bank_name, bank_city) as the targeting strings. */
  bankContextCharsMax: limits.targetingCharsMax,
  /** An external provider answering later than this is a 503 (a slow model stalls one request, not the service). */
  externalTimeoutMsDefault: 8_000,
  /** Consecutive external failures that open the circuit, and how long it stays open before one trial call. */
  breakerFailuresToOpen: 3,
  breakerOpenMs: 30_000,
  /** The provider's answer is read up to this many bytes; a profile is well under 4 KiB of JSON. */
  externalResponseBytesMax: 64 * 1024,
  /** Longest string field accepted from a provider; longer is cut (a name or a street is far shorter). */
  externalFieldCharsMax: 100,
} as const;

assert(
  profileLimits.ageFloor <= profileLimits.ageMinDefault &&
    profileLimits.ageMaxDefault <= profileLimits.ageCeiling,
  'defaults inside the age bounds',
);
// ---- Fixture manifests, payment scenarios and the VoP name-matching benchmark ----
export const artifactLimits = {
  /** Spec "Bounds": a fixture manifest holds 1 to 500 fixtures. */
  manifestFixturesMax: 500,
  /** fixture_id, seed and registry_snapshot: identifiers a harness pins; 128 fits a UUID, a path-like name or a hash. */
  manifestIdCharsMax: 128,
  /** A fixture's IBAN text: the longest IBAN is 34 characters; 64 leaves room for spaces and matches POST /validate. */
  manifestIbanCharsMax: limits.ibanInputCharsMax,
  /** Client-declared sources and schema references: a manifest names a handful; 50 keeps a body well under the cap. */
  manifestReferencesMax: 50,
  /** Text of one client-declared source or schema field (licence text, URL): 512 characters. */
  manifestReferenceCharsMax: 512,
  /** expected_outcomes: labels such as "valid" or a test id; 100 labels of 64 characters. */
  manifestOutcomesMax: 100,
  manifestOutcomeCharsMax: 64,
  /** Payment scenario seed and bank_target: as the other seeds and targeting strings. */
  scenarioSeedCharsMax: limits.datasetSeedCharsMax,
  scenarioTargetCharsMax: limits.targetingCharsMax,
  /** How many candidates a scenario's name target reports; the first in the directory's stable order is used. */
  scenarioNameCandidatesMax: 25,
  /** Amount as decimal text: 18 integer digits and the currency's decimals are far beyond any scheme maximum. */
  scenarioAmountCharsMax: 24,
  /** VoP benchmark rows per compile: the default matrix (every base name x every perturbation) fits. */
  vopRowsMax: 1_000,
  vopRowsDefault: 200,
  vopSeedCharsMax: limits.datasetSeedCharsMax,
  /** Labels submitted for scoring: one per row of the largest matrix. */
  vopScoreLabelsMax: 1_000,
  /** A submitted name in a scored row: VoP names are Max140Text in the EPC API. */
  vopNameCharsMax: 140,
} as const;

assert(
  artifactLimits.manifestFixturesMax * (artifactLimits.manifestIbanCharsMax + 120) <
    limits.httpJsonBodyBytesMax,
  'a full manifest request fits the JSON body cap',
);
assert(
  artifactLimits.vopScoreLabelsMax >= artifactLimits.vopRowsMax,
  'every row of a compiled matrix can be scored',
);
assert(limits.statementAnalysesConcurrent >= 1, 'at least one analysis runs');

/** JSON keys and punctuation around one identifier: {"value":"","type":""}, plus a comma. */
const identifierJsonOverheadBytes = 32;
assert(
  registry.lookupIdentifiersMax *
    (registry.identifierValueCharsMax +
      registry.identifierTypeCharsMax +
      identifierJsonOverheadBytes) <=
    limits.httpJsonBodyBytesMax,
  'a full lookup or export request (1,000 identifiers of the longest allowed values) fits the JSON body cap',
);
assert(
  limits.httpJsonBodyBytesMax < limits.grpcMessageBytesMax,
  'every request the REST front takes fits a gRPC message',
);
assert(
  usRouting.generateFreeRowsMax <= usRouting.generatePaidRowsMax,
  'free generation within paid',
);
assert(
  usRouting.targetedProRowsMax <= usRouting.targetedBusinessRowsMax,
  'Pro targeting within Business',
);
assert(usRouting.listFreeMax <= usRouting.listPaidMax, 'free list within paid list');
assert(
  Math.ceil(limits.statementFileBytesMax / 3) * 4 + limits.statementMultipartOverheadBytesMax <=
    limits.mcpBodyBytesMax,
  'a base64 statement upload fits an MCP request',
);

// ---- REST front threads (IBANQA_HTTP_THREADS; src/transport/http/threads/) ----
export const frontThreadLimits = {
  /** Front threads: each is a uWS app with its own data maps and LMDB readers; beyond 16 memory and readers dominate (as the pool). */
  threadsMax: 16,
  /** A stopping front thread waits this long for its requests in flight to settle before it closes its connections. */
  drainMs: 10_000,
  /** A front thread must be listening within this time of being started (it opens the registry read-only and builds its bank maps). */
  startMs: 60_000,
} as const;
