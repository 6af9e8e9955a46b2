import type { Account } from '../accounts/account-store.js';
import type { Claim, IdempotencyStore } from '../accounts/idempotency-store.js';
import type { RequestKey } from '../domain/rng.js';
import { AppError } from '../errors.js';
import type { InputValidator } from '../ops/framework/input-validation.js';
import type { AnyOp, CallerView, Debits, RunContext } from '../ops/framework/op.js';
import type { BodyFormat } from '../render/body.js';
import type { BankDirectory } from '../registry/bank-directory.js';
import type { RoutingDirectory } from '../registry/routing-directory.js';
import type { Authenticator, CreditMeter, KeylessLimiter, Reservation } from './ports.js';
import { requestKeyFor } from './request-key.js';
import { keylessRefusal } from './keyless-refusal.js';

export interface Runner {
  /** Runs an op in the worker pool; rejects with AppError on failure. With `render`, resolves to a RenderedBody. */
  runInPool(op: AnyOp, input: unknown, caller: CallerView, requestKey: RequestKey, rowStart: number, render?: BodyFormat): Promise<unknown>;
}

export interface ExecuteOptions {
  /** The body format the transport will send (REST): a pooled run may then serialize in the worker. */
  readonly render?: (input: unknown) => BodyFormat;
}

export interface ServiceDeps {
  readonly authenticator: Authenticator;
  readonly meter: CreditMeter;
  readonly keyless: KeylessLimiter;
  readonly bank: BankDirectory;
  readonly runner: Runner;
  readonly poolThresholdRows: number;
  readonly validators: ReadonlyMap<string, InputValidator>;
  readonly now?: () => Date;
  /** US routing directory for the /us/routing ops. */
  readonly routing?: RoutingDirectory;
  /** Saved results of idempotent ops (Op.idempotency); without it they are not replay-protected. */
  readonly idempotency?: IdempotencyStore;
}

export interface CallIdentity {
  readonly apiKey: string | undefined;
  readonly ip: string;
}

export interface ExecuteOutcome {
  readonly output: unknown;
  readonly input: unknown;
  /** Extra response headers (X-RateLimit-Remaining on keyless calls). */
  readonly headers: Readonly<Record<string, string>>;
}

/** An admitted request: authenticated, decoded, gated and paid for; run it and settle with `settle`. */
export interface Admission {
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey;
  readonly headers: Readonly<Record<string, string>>;
  /** Commit (with the debits actually used, if fewer than reserved) or refund. Exactly once. */
  settle(succeeded: boolean, actual?: Debits): void;
}

/** A request that passed every check that needs no balance: what `pay` reserves against. */
interface Checked {
  readonly op: AnyOp;
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey;
  /** null: no key (keyless validate, or an op with access 'none'). */
  readonly account: Account | null;
  readonly ip: string;
  readonly now: Date;
}

/** A replayed object output says so; the saved output itself is unchanged. */
function markReplayed(output: unknown): unknown {
  return output !== null && typeof output === 'object' && !Array.isArray(output) ? { ...output, replayed: true } : output;
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

  constructor(private readonly deps: ServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  get bank(): BankDirectory {
    return this.deps.bank;
  }

  async execute(op: AnyOp, raw: unknown, identity: CallIdentity, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
    const checked = this.check(op, raw, identity);
    // A replay (saved or in flight) costs nothing; it is decided after the gate, before the reservation.
    const claim = this.claim(op, checked.input, checked.caller);
    let admission: Admission;
    try {
      const free = claim?.kind === 'replay' || checked.account === null;
      admission = this.pay(checked, free ? {} : op.cost(checked.input as never, checked.caller));
    } catch (error) {
      if (claim?.kind === 'leader') claim.abandon(error);
      throw error;
    }
    let succeeded = false;
    let used: Debits | undefined;
    try {
      const output = claim?.kind === 'replay'
        ? markReplayed(await claim.result)
        : await this.run(op, admission.input, admission.caller, admission.requestKey, 0, undefined, this.renderFor(op, admission.input, options));
      if (claim?.kind === 'leader') claim.complete(output, this.now());
      // Ops that reserve more than they may use (search reserves its limit) commit what they used.
      if (claim?.kind !== 'replay') used = op.usedCost?.(admission.input as never, output, admission.caller);
      succeeded = true;
      return { output, input: admission.input, headers: admission.headers };
    } catch (error) {
      if (claim?.kind === 'leader') claim.abandon(error);
      throw error;
    } finally {
      admission.settle(succeeded, used);
    }
  }

  /** Worker-side rendering only where the main thread needs no output object afterwards. */
  private renderFor(op: AnyOp, input: unknown, options: ExecuteOptions): BodyFormat | undefined {
    if (options.render === undefined || op.usedCost !== undefined || op.idempotency !== undefined) return undefined;
    return options.render(input);
  }

  private claim(op: AnyOp, input: unknown, caller: CallerView): Claim | undefined {
    if (op.idempotency === undefined || caller.keyId === null) return undefined;
    const now = this.now();
    const request = op.idempotency(input as never, now); // also checks the key itself (e.g. request_id age)
    const store = this.deps.idempotency;
    return request === undefined || store === undefined ? undefined : store.claim(caller.keyId, request, now);
  }

  /** Runs an op inline or in the pool by its row count. */
  async run(
    op: AnyOp,
    input: unknown,
    caller: CallerView,
    requestKey: RequestKey,
    rowStart: number,
    totalRows: number = op.rows(input as never),
    render?: BodyFormat,
  ): Promise<unknown> {
    if (totalRows >= this.deps.poolThresholdRows) {
      return this.deps.runner.runInPool(op, input, caller, requestKey, rowStart, render);
    }
    const context: RunContext = { requestKey, caller, bank: this.deps.bank, rowStart, ...(this.deps.routing === undefined ? {} : { routing: this.deps.routing }) };
    return op.run(input as never, context);
  }

  /**
   * Admission control shared by unary calls and streams: everything that can refuse a request runs
   * here, in order, before a single credit moves. `costOf` lets streams reserve per batch.
   */
  admit(op: AnyOp, raw: unknown, identity: CallIdentity, costOf: (input: unknown, caller: CallerView) => Debits): Admission {
    const checked = this.check(op, raw, identity);
    return this.pay(checked, checked.account === null ? {} : costOf(checked.input, checked.caller));
  }

  /** Authenticate -> decode -> gate -> request key: every refusal that needs no balance, nothing debited. */
  private check(op: AnyOp, raw: unknown, identity: CallIdentity): Checked {
    const now = this.now();
    const account = this.authenticate(op, identity.apiKey, now);
    const validator = this.deps.validators.get(op.name);
    if (validator === undefined) throw new AppError('internal', `no validator for ${op.name}`);
    const input = validator(raw);
    const caller = account === null ? anonymous : callerOf(account);
    op.gate?.(input as never, caller);
    const seed = op.seedOf?.(input as never);
    const requestKey = requestKeyFor(op.keyScope ?? op.name, seed, op.rowParameters?.(input as never) ?? input);
    return { op, input, caller, requestKey, account, ip: identity.ip, now };
  }

  /** Holds the debits of a checked request (keyless calls: the per-IP allowance instead); refusals debit nothing. */
  private pay(checked: Checked, debits: Debits): Admission {
    const { op, input, caller, requestKey, account, ip, now } = checked;
    if (account === null) return this.admitKeyless(op, input, caller, requestKey, ip, now);
    const reservation = this.reserve(account, debits, now);
    return { input, caller, requestKey, headers: {}, settle: (ok, actual) => this.settle(reservation, ok, actual) };
  }

  private authenticate(op: AnyOp, apiKey: string | undefined, now: Date): Account | null {
    if (op.access === 'none') return null;
    if (apiKey === undefined) {
      if (op.access === 'key_optional') return null;
      throw new AppError('unauthenticated', 'Missing API key: send it in the X-API-Key header');
    }
    const account = this.deps.authenticator.authenticate(apiKey, now);
    if (account === null) throw new AppError('unauthenticated', 'Invalid API key');
    return account;
  }

  private admitKeyless(op: AnyOp, input: unknown, caller: CallerView, requestKey: RequestKey, ip: string, now: Date): Admission {
    if (op.access === 'none') return { input, caller, requestKey, headers: {}, settle: () => undefined };
    const rows = op.rows(input as never);
    const perRequestMax = op.keylessRowsMax ?? 0;
    if (rows > perRequestMax) {
      throw new AppError('invalid_argument', `Without an API key at most ${perRequestMax} items per request are allowed, got ${rows}`);
    }
    const outcome = this.deps.keyless.take(ip, rows, now);
    const headers = { 'X-RateLimit-Remaining': String(outcome.remaining), 'X-RateLimit-Reset': outcome.resets_at };
    if (!outcome.ok) {
      throw keylessRefusal(outcome, rows);
    }
    return { input, caller, requestKey, headers, settle: () => undefined };
  }

  private reserve(account: Account, debits: Debits, now: Date): Reservation {
    const outcome = this.deps.meter.reserve(account, debits, now);
    if (outcome.ok) return outcome.reservation;
    throw new AppError(
      'credits_exhausted',
      `${outcome.kind} allowance exhausted: this request needs ${outcome.needed}, ${outcome.remaining} left` +
        (outcome.resets_at === null ? ' (no reset on this plan)' : `, resets at ${outcome.resets_at}`),
      { credit_kind: outcome.kind, needed: outcome.needed, remaining: outcome.remaining },
    );
  }

  private settle(reservation: Reservation, succeeded: boolean, actual?: Debits): void {
    if (succeeded) this.deps.meter.commit(reservation, actual);
    else this.deps.meter.refund(reservation);
  }
}
