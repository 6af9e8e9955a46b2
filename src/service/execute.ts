import type { RequestKey } from '../domain/rng.js';
import { AppError } from '../errors.js';
import type { Capabilities } from '../contract/capabilities.js';
import type { InputValidator } from '../ops/framework/input-validation.js';
import type { AnyOp, CallerView, Debits } from '../contract/op.js';
import { declares } from '../ops/framework/refusals.js';
import type {
  Account,
  Balance,
  Claim,
  HeldCharge,
  Reservation,
  StatePorts,
} from '../ports/index.js';
import { bodyFormatOf, type BodyFormat } from '../render/body.js';
import { ContextFactory } from './context.js';
import { registryIndexOf } from '../registry/registry-index.js';
import type { UsageReader } from '../ports/usage.js';
import type { CreditKind } from '../domain/plans/plans.js';
import type { ProfileProviderPort } from '../contract/capabilities.js';
import type { ManifestKeys } from '../domain/manifest/signing.js';
import type { StatementReviews } from '../statements/reviews.js';
import { requestKeyFor } from './request-key.js';
import { TurnVersion } from './registry-version.js';
import { usageHeaders } from './usage-headers.js';

import { keylessRefusal } from './keyless-refusal.js';
import type { Runner } from '../pool/task.js';

export type { PoolTask, Runner } from '../pool/task.js';

export interface ExecuteOptions {
  /** The transport sends a serialized body (REST): a pooled run may then serialize in the worker. */
  readonly serialized?: boolean;
  /**
   * A call this one's debit depends on (the previous message of a gRPC stream, answered before this one):
   * this call commits only if that one was decided a success; otherwise it is refunded and fails. Checked
   * after an idempotent leader saved its result, so only for ops without idempotency (ValidateStream).
   */
  readonly after?: Promise<boolean>;
  /** Told whether this call succeeded once that is decided, before its commit's durable write. */
  readonly onDecided?: (succeeded: boolean) => void;
}

export interface ServiceDeps {
  /** Keys, credits, the keyless allowance, idempotency records and watches. */
  readonly state: StatePorts;
  /** The read-only data every thread has (bank, routing, registry); the service adds the state ports. */
  readonly data: Partial<Pick<Capabilities, 'bank' | 'routing' | 'registry'>>;
  readonly runner: Runner;
  readonly poolThresholdRows: number;
  readonly validators: ReadonlyMap<string, InputValidator>;
  readonly now?: () => Date;
  /** External profile provider for /ai-profile (IBANQA_AI_PROFILE_URL); null: built-in profiles only. */
  readonly profileProvider?: ProfileProviderPort | null;
  /** Fixture manifest signing keys (the /fixture-manifest ops); null: manifests are hashed, not signed. */
  readonly manifestKeys?: ManifestKeys | null;
  /** The statement review workflow (uploads, reviews, the analysis queue): main thread only. */
  readonly statements?: StatementReviews;
  /** Balances for GET /usage (main thread only). */
  readonly usage?: UsageReader;
}

/** Where a server stream's chunks go: write resolves when the transport can take more. */
export interface StreamSink {
  write(chunk: { readonly start_index: number; readonly rows: unknown }): Promise<void>;
  cancelled(): boolean;
}

export interface CallIdentity {
  readonly apiKey: string | undefined;
  /** The client address the keyless allowance counts; only read when `apiKey` is undefined. */
  readonly ip: string;
}

export interface ExecuteOutcome {
  /** The op's output, or a RenderedBody when a worker already serialized it (in `format`). */
  readonly output: unknown;
  readonly input: unknown;
  /** Decided once per request: CSV when the op renders CSV and the input asks for it, JSON otherwise. */
  readonly format: BodyFormat;
  /** Extra response headers (X-RateLimit-Remaining on keyless calls). */
  readonly headers: Readonly<Record<string, string>>;
}

/** An admitted request: authenticated, decoded, gated and paid for; run it and settle with `settle`. */
export interface Admission {
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Commit (with the debits actually used, if fewer than reserved) or refund. Exactly once; resolves when durable.
   * `save`: an idempotent leader's commit, which writes its result and this charge in one transaction instead.
   */
  settle(succeeded: boolean, actual?: Debits, save?: SaveWithCharge): Promise<void>;
  /** Remaining credits of a kind once this request commits (null: no cap or no key). */
  remaining?(kind: CreditKind): Promise<number | null>;
}

/** Commits a charge together with another write (Claim.complete): settles it either way. */
type SaveWithCharge = (charge: HeldCharge) => Promise<void>;

/** A request that passed every check that needs no balance: what `pay` reserves against. */
interface Checked {
  readonly op: AnyOp;
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey | undefined;
  /** null: no key (keyless validate, or an op with access 'none'). */
  readonly account: Account | null;
  readonly ip: string;
  readonly now: Date;
}

/** A replayed object output says so, and that it charged nothing (charged_* 0); the saved output itself is unchanged. */
function markReplayed(output: unknown): unknown {
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return output;
  const replayed: Record<string, unknown> = { ...output, replayed: true };
  for (const field of Object.keys(replayed)) if (field.startsWith('charged_')) replayed[field] = 0;
  return replayed;
}

/**
 * An op answers only with the codes its declaration produces (ops/framework/refusals.ts), the same set the
 * OpenAPI document and the gRPC contract list: any other code is a bug (a refusal nobody declared), answered
 * as 500 internal and logged by the transport with the op and the code, so the contract cannot promise less
 * than the service sends.
 */
function withinContract(op: AnyOp, thrown: unknown): unknown {
  if (!(thrown instanceof AppError) || thrown.code === 'internal' || declares(op, thrown.code))
    return thrown;
  const breach = new Error(
    `${op.name} refused with ${thrown.code}, which its declaration does not list: ${thrown.message}`,
    { cause: thrown },
  );
  return new AppError('internal', 'internal error', {}, { cause: breach });
}

const anonymous: CallerView = { keyId: null, plan: null, paid: false };

function callerOf(account: Account): CallerView {
  return { keyId: account.id, plan: account.plan, paid: account.plan !== 'free' };
}

/**
 * The only path from a transport to an operation: authenticate -> decode -> gate -> reserve ->
 * run (inline or pool) -> commit, or refund on failure. Every refusal happens before any debit.
 */
export class Service {
  private readonly now: () => Date;
  private readonly contexts: ContextFactory;
  private readonly registryVersion: TurnVersion;

  constructor(private readonly deps: ServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.registryVersion = new TurnVersion(deps.data.bank);
    this.contexts = new ContextFactory(
      {
        ...deps.data,
        ...(deps.data.registry === undefined
          ? {}
          : { registryIndex: registryIndexOf(deps.data.registry) }),
        watches: deps.state.watches,
        profileProvider: deps.profileProvider ?? null,
        manifestKeys: deps.manifestKeys ?? null,
        ...(deps.statements === undefined ? {} : { statements: deps.statements }),
        ...(deps.usage === undefined ? {} : { usage: deps.usage }),
      },
      this.now,
      'main thread',
    );
  }

  /** Runs one call; it fails only with a code the op declares (`withinContract`). */
  async execute(
    op: AnyOp,
    raw: unknown,
    identity: CallIdentity,
    options: ExecuteOptions = {},
  ): Promise<ExecuteOutcome> {
    try {
      return await this.executeCall(op, raw, identity, options);
    } catch (thrown) {
      throw withinContract(op, thrown);
    }
  }

  private async executeCall(
    op: AnyOp,
    raw: unknown,
    identity: CallIdentity,
    options: ExecuteOptions,
  ): Promise<ExecuteOutcome> {
    const checked = await this.check(op, raw, identity);
    // A replay (saved or in flight) costs nothing; it is decided after the gate, before the reservation.
    const claim = await this.claim(op, checked.input, checked.caller);
    let admission: Admission;
    try {
      const free = claim?.kind === 'replay' || checked.account === null;
      admission = free ? await this.pay(checked, {}) : await this.payCost(checked);
    } catch (error) {
      if (claim?.kind === 'leader') claim.abandon(error);
      throw error;
    }
    let succeeded = false;
    let used: Debits | undefined;
    /** An idempotent leader's result and debit committed together (or, failing, neither): nothing left to settle. */
    let settled = false;
    try {
      const format = bodyFormatOf(op, admission.input);
      const output = await this.produce(op, claim, admission, format, options);
      if (claim?.kind === 'leader') {
        used = op.usedCost?.(admission.input, output, admission.caller);
        settled = true;
        await this.saveLeader(claim, admission, output, used, options);
      }
      if (op.remainingField !== undefined && output !== null && typeof output === 'object') {
        (output as Record<string, unknown>)[op.remainingField.field] =
          (await admission.remaining?.(op.remainingField.kind)) ?? null;
      }
      // Ops that reserve more than they may use (search reserves its limit) commit what they used.
      if (claim === undefined) used = op.usedCost?.(admission.input, output, admission.caller);
      if (options.after !== undefined && !(await options.after)) {
        throw new AppError(
          'unavailable',
          'An earlier message of this stream failed; this one was not charged',
        );
      }
      succeeded = true;
      return { output, input: admission.input, format, headers: admission.headers };
    } catch (error) {
      if (claim?.kind === 'leader' && !settled) claim.abandon(error);
      throw error;
    } finally {
      if (!settled) {
        options.onDecided?.(succeeded);
        // Before the transport answers: an acknowledged debit is a committed one.
        await admission.settle(succeeded, used);
      }
    }
  }

  /**
   * One transaction for an idempotent leader's saved result and its debit (RELIABILITY.md, "An idempotent run is
   * paid exactly once"): a crash between two separate writes left a result saved and unpaid, replayed free ever
   * after. A failure there has refunded the run and abandoned its claim; the call is decided only once it is known.
   */
  private async saveLeader(
    claim: Extract<Claim, { kind: 'leader' }>,
    admission: Admission,
    output: unknown,
    used: Debits | undefined,
    options: ExecuteOptions,
  ): Promise<void> {
    try {
      await admission.settle(true, used, (charge) => claim.complete(output, this.now(), charge));
    } catch (error) {
      options.onDecided?.(false);
      throw error;
    }
    options.onDecided?.(true);
  }

  /** The output: a replay's saved one, or the op run inline or in the pool. */
  private async produce(
    op: AnyOp,
    claim: Claim | undefined,
    admission: Admission,
    format: BodyFormat,
    options: ExecuteOptions,
  ): Promise<unknown> {
    if (claim?.kind === 'replay') return markReplayed(await claim.result);
    return this.run(
      op,
      admission.input,
      admission.caller,
      admission.requestKey,
      0,
      undefined,
      this.renderFor(op, format, options),
      options.serialized === true && format === 'json',
    );
  }

  /**
   * A server stream: admitted once (all rows reserved), produced in chunks of op.chunks.size rows (each
   * chunk inline or in the pool by the stream's total), settled with the rows the client was sent.
   */
  async stream(op: AnyOp, raw: unknown, identity: CallIdentity, sink: StreamSink): Promise<void> {
    try {
      await this.streamChunks(op, raw, identity, sink);
    } catch (thrown) {
      throw withinContract(op, thrown);
    }
  }

  private async streamChunks(
    op: AnyOp,
    raw: unknown,
    identity: CallIdentity,
    sink: StreamSink,
  ): Promise<void> {
    const chunks = op.chunks;
    if (chunks === undefined) throw new AppError('internal', `${op.name} declares no chunks`);
    const admission = await this.admit(op, raw, identity);
    const total = chunks.total(admission.input);
    let sent = 0;
    try {
      for (let start = 0; start < total && !sink.cancelled(); start += chunks.size) {
        const count = Math.min(chunks.size, total - start);
        const rows = await this.run(
          op,
          chunks.slice(admission.input, count),
          admission.caller,
          admission.requestKey,
          start,
          total,
        );
        if (sink.cancelled()) break;
        await sink.write({ start_index: start, rows });
        sent += count;
      }
    } finally {
      const sentCost = op.cost(chunks.slice(admission.input, sent), admission.caller);
      await admission.settle(sent > 0, sentCost);
    }
  }

  /** The op's cost; with its BIC reveals spent, an op that can answer locked (costWithoutReveals) does so instead of a 429. */
  private async payCost(checked: Checked): Promise<Admission> {
    const { op, input, caller } = checked;
    try {
      return await this.pay(checked, op.cost(input, caller));
    } catch (error) {
      const spent =
        error instanceof AppError &&
        error.code === 'credits_exhausted' &&
        error.details.credit_kind === 'bic_reveals';
      if (!spent || op.costWithoutReveals === undefined) throw error;
      const locked: CallerView = { ...caller, revealsSpent: true };
      return this.pay({ ...checked, caller: locked }, op.costWithoutReveals(input, locked));
    }
  }

  /** Worker-side rendering only where the main thread needs no output object afterwards. */
  private renderFor(
    op: AnyOp,
    format: BodyFormat,
    options: ExecuteOptions,
  ): BodyFormat | undefined {
    if (
      options.serialized !== true ||
      op.usedCost !== undefined ||
      op.idempotency !== undefined ||
      op.remainingField !== undefined
    )
      return undefined;
    return format;
  }

  private async claim(op: AnyOp, input: unknown, caller: CallerView): Promise<Claim | undefined> {
    if (op.idempotency === undefined || caller.keyId === null) return undefined;
    const now = this.now();
    const request = op.idempotency(input, now); // also checks the key itself (e.g. request_id age)
    return request === undefined
      ? undefined
      : this.deps.state.idempotency.claim(caller.keyId, request, now);
  }

  /** Runs an op inline or in the pool by its row count. */
  async run(
    op: AnyOp,
    input: unknown,
    caller: CallerView,
    requestKey: RequestKey | undefined,
    rowStart: number,
    totalRows: number = op.rows(input),
    render?: BodyFormat,
    writesJson = false,
  ): Promise<unknown> {
    // The registry version every thread answers this request from (read once per event-loop turn).
    const registryVersion = this.registryVersion.read();
    if (op.runsOn === 'any' && totalRows >= this.deps.poolThresholdRows) {
      return this.deps.runner.runInPool({
        op,
        input,
        caller,
        requestKey,
        rowStart,
        registryVersion,
        render,
        now: this.now(),
      });
    }
    const context = this.contexts.contextFor(op, { requestKey, caller, rowStart });
    // A JSON transport takes the answer the op writes itself, where it declares one (validate).
    if (writesJson && op.runJson !== undefined) return op.runJson(input, context);
    return op.run(input, context);
  }

  /** Admission control: everything that can refuse a request runs here, in order, before a single credit moves. */
  private async admit(op: AnyOp, raw: unknown, identity: CallIdentity): Promise<Admission> {
    const checked = await this.check(op, raw, identity);
    return this.pay(
      checked,
      checked.account === null ? {} : op.cost(checked.input, checked.caller),
    );
  }

  /** Authenticate -> decode -> gate -> request key: every refusal that needs no balance, nothing debited. */
  private async check(op: AnyOp, raw: unknown, identity: CallIdentity): Promise<Checked> {
    const now = this.now();
    const account = await this.authenticate(op, identity.apiKey, now);
    const validator = this.deps.validators.get(op.name);
    if (validator === undefined) throw new AppError('internal', `no validator for ${op.name}`);
    const input = validator(raw);
    const caller = account === null ? anonymous : callerOf(account);
    op.gate?.(input, caller);
    const seed = op.seedOf?.(input);
    // Only ops that draw random values get a key: the others would pay a hash or random bytes for nothing.
    const requestKey = op.needs.includes('requestKey')
      ? requestKeyFor(op.keyScope ?? op.name, seed, op.rowParameters?.(input) ?? input)
      : undefined;
    return { op, input, caller, requestKey, account, ip: identity.ip, now };
  }

  /** Holds the debits of a checked request (keyless calls: the per-IP allowance instead); refusals debit nothing. */
  private async pay(checked: Checked, debits: Debits): Promise<Admission> {
    const { op, input, caller, requestKey, account, ip, now } = checked;
    if (account === null) return this.admitKeyless(op, input, caller, requestKey, ip, now);
    const reservation = await this.reserve(op, account, debits, now);
    // Filled once settled, so X-RateLimit-Remaining counts this request; the transport reads it after that.
    const headers: Record<string, string> = {};
    const settle = async (ok: boolean, actual?: Debits, save?: SaveWithCharge) => {
      if (ok && save !== undefined) await save(this.deps.state.meter.charge(reservation, actual));
      else await this.settle(reservation, ok, actual);
      Object.assign(headers, usageHeaders(account, await this.answerBalance(account, now)));
    };
    const remaining = async (kind: CreditKind) =>
      (await this.answerBalance(account, this.now()))[kind].remaining;
    return { input, caller, requestKey, headers, settle, remaining };
  }

  private answerBalance(account: Account, now: Date): Promise<Balance> {
    const meter = this.deps.state.meter;
    return meter.answerBalance?.(account, now) ?? meter.balance(account, now);
  }

  private async authenticate(
    op: AnyOp,
    apiKey: string | undefined,
    now: Date,
  ): Promise<Account | null> {
    if (op.access === 'none') return null;
    if (apiKey === undefined) {
      if (op.access === 'key_optional') return null;
      throw new AppError('unauthenticated', 'Missing API key: send it in the X-API-Key header');
    }
    const account = await this.deps.state.authenticator.authenticate(apiKey, now);
    if (account === null) throw new AppError('unauthenticated', 'Invalid API key');
    return account;
  }

  private async admitKeyless(
    op: AnyOp,
    input: unknown,
    caller: CallerView,
    requestKey: RequestKey | undefined,
    ip: string,
    now: Date,
  ): Promise<Admission> {
    if (op.access === 'none')
      return { input, caller, requestKey, headers: {}, settle: async () => undefined };
    const rows = op.rows(input);
    const perRequestMax = op.keylessRowsMax ?? 0;
    if (rows > perRequestMax) {
      throw new AppError(
        'invalid_argument',
        `Without an API key at most ${perRequestMax} items per request are allowed, got ${rows}`,
      );
    }
    const outcome = await this.deps.state.keyless.take(ip, rows, now);
    const headers = {
      'X-RateLimit-Remaining': String(outcome.remaining),
      'X-RateLimit-Reset': outcome.resets_at,
    };
    if (!outcome.ok) {
      throw keylessRefusal(outcome, rows);
    }
    // A keyless request that fails after admission gets its allowance back, like a keyed refund.
    const settle = async (ok: boolean) =>
      ok ? undefined : this.deps.state.keyless.refund(ip, rows, now);
    return { input, caller, requestKey, headers, settle };
  }

  private async reserve(
    op: AnyOp,
    account: Account,
    debits: Debits,
    now: Date,
  ): Promise<Reservation> {
    const outcome = await this.deps.state.meter.reserve(account, debits, now);
    if (outcome.ok) return outcome.reservation;
    throw new AppError(
      op.exhaustedErrors?.[outcome.kind] ?? 'credits_exhausted',
      `${outcome.kind} allowance exhausted: this request needs ${outcome.needed}, ${outcome.remaining} left` +
        (outcome.resets_at === null
          ? ' (no reset on this plan)'
          : `, resets at ${outcome.resets_at}`),
      {
        credit_kind: outcome.kind,
        needed: outcome.needed,
        limit: outcome.limit,
        remaining: outcome.remaining,
        ...(outcome.resets_at === null ? {} : { resets_at: outcome.resets_at }),
      },
    );
  }

  private settle(reservation: Reservation, succeeded: boolean, actual?: Debits): Promise<void> {
    return succeeded
      ? this.deps.state.meter.commit(reservation, actual)
      : this.deps.state.meter.refund(reservation);
  }
}
