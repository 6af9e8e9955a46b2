// Goal: the LMDB state ports, their in-memory twin and the PostgreSQL ports keep one contract, so the service
// behaves the same on each. Method: one suite, a function of a factory, run against
// lmdbPorts(AccountStore.open(tmpdir)), memoryPorts(), the LMDB ports over a MessagePort, and pgPorts over a schema
// of its own in the machine's PostgreSQL (created and dropped per subject). Allowances are the spec's published figures (Free: 50 API calls and 5 profiles for life;
// keyless: 100 IBANs per IP per UTC day), not read from the plan table under test.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { AccountStore, type SubDatabaseName } from '../../src/accounts/account-store.js';
import type { CreatedKey } from '../../src/accounts/key-records.js';
import { generateRawKey } from '../../src/accounts/keys.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { memoryPorts } from '../../src/accounts/memory-ports.js';
import { creditKinds, type PlanId } from '../../src/domain/plans/plans.js';
import { limits } from '../../src/limits.js';
import { AppError, type ErrorCode } from '../../src/errors.js';
import type {
  Account,
  Claim,
  Debits,
  IdempotencyRequest,
  StatePorts,
} from '../../src/ports/index.js';
import { MessageChannel } from 'node:worker_threads';
import { remoteLeaseLedger, remotePorts } from '../../src/ports/remote/remote-ports.js';
import { servePorts } from '../../src/ports/remote/serve-ports.js';
import { RpcLink } from '../../src/transport/http/threads/rpc.js';
import { migrate } from '../../src/postgres/migrate.js';
import { openPool } from '../../src/postgres/pool.js';
import { pgPorts } from '../../src/postgres/ports.js';
import { LeasedMeter } from '../../src/accounts/meter-leased.js';
import { PgLeaseLedger } from '../../src/postgres/meter-leases.js';
import { createTestSchema } from '../helpers/postgres.js';
import { failingPuts } from '../helpers/failing-puts.js';

/** What storage holds, read from it directly (not through the ports under test). */
interface Stored {
  /** The saved result of (key id, key) as stored, null when there is none. */
  readonly result: string | null;
  /** Profile credits the account has used, summed over its periods. */
  readonly usedProfiles: number;
}

/** Which write of a leader's completion a sabotage makes fail: the saved result, or the debit. */
type Target = 'record' | 'charge';

/** What the suite needs from an implementation: the ports, a way to issue and revoke keys, and cleanup. */
interface Subject {
  readonly ports: StatePorts;
  createKey(plan: PlanId, now: Date, label?: string): CreatedKey | Promise<CreatedKey>;
  revokeKey(id: string, now: Date): boolean | Promise<boolean>;
  close(): Promise<void>;
  /** Storage read directly; absent for the in-memory twin, which has no storage of its own. */
  stored?(keyId: string, key: string, accountId: string): Promise<Stored>;
  /**
   * Makes every write of `target` fail until the returned function heals it: an injected throwing put in LMDB, a
   * trigger that raises in PostgreSQL. Absent for the in-memory twin, whose writes cannot fail.
   */
  sabotage?(target: Target): Promise<() => Promise<void>>;
}

const T0 = new Date('2026-03-10T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60 * 1000;
const FREE_API_CALLS = 50;
const FREE_PROFILES = 5;
const KEYLESS_PER_DAY = 100;

function rejectsWith(code: ErrorCode): (error: unknown) => boolean {
  return (error) => error instanceof AppError && error.code === code;
}

function stateContract(name: string, open: () => Subject | Promise<Subject>): void {
  /** A fresh subject per test, closed after it. */
  async function withSubject(body: (subject: Subject) => Promise<void>): Promise<void> {
    const subject = await open();
    try {
      await body(subject);
    } finally {
      await subject.close();
    }
  }

  describe(`state ports contract: ${name}`, () => {
    describe('authenticator', () => {
      it('malformed, unknown and revoked keys are null; a created key is its account', () =>
        withSubject(async ({ ports, createKey, revokeKey }) => {
          const { authenticator } = ports;
          const created = await createKey('starter', T0, 'contract');
          assert.match(created.key, /^iq_[0-9a-hjkmnp-tv-z]{32}$/);
          const account = await authenticator.authenticate(created.key, at(1));
          assert.deepEqual(account, {
            id: created.id,
            plan: 'starter',
            label: 'contract',
            created_at: T0.toISOString(),
            expires_at: null,
          });
          assert.equal(
            await authenticator.authenticate(generateRawKey(), at(1)),
            null,
            'well-formed but never issued',
          );
          for (const malformed of [
            '',
            'nope',
            created.key.toUpperCase(),
            `${created.key}x`,
            created.key.slice(0, -1),
          ]) {
            assert.equal(await authenticator.authenticate(malformed, at(1)), null, malformed);
          }
          assert.equal(await revokeKey(created.id, at(2)), true);
          assert.equal(
            await revokeKey(created.id, at(3)),
            false,
            'revoking twice reports nothing to revoke',
          );
          assert.equal(await authenticator.authenticate(created.key, at(4)), null);
        }));

      it('accountById finds an issued key by id, not a revoked or unknown one', () =>
        withSubject(async ({ ports, createKey, revokeKey }) => {
          const created = await createKey('pro', T0, 'by id');
          const expected = {
            id: created.id,
            plan: 'pro',
            label: 'by id',
            created_at: T0.toISOString(),
            expires_at: null,
          };
          assert.deepEqual(await ports.authenticator.accountById(created.id), expected);
          assert.deepEqual(
            await ports.authenticator.authenticate(created.key, at(1)),
            expected,
            'the same account as the key authenticates to',
          );
          assert.equal(await ports.authenticator.accountById('no-such-key-id'), null);
          assert.equal(await revokeKey(created.id, at(2)), true);
          assert.equal(await ports.authenticator.accountById(created.id), null);
        }));

      it('a 24h pass works for 24 hours, then is refused as payment_required', () =>
        withSubject(async ({ ports, createKey }) => {
          const pass = await createKey('pass24h', T0);
          const account = await ports.authenticator.authenticate(pass.key, at(24 * HOUR - 1));
          assert.equal(account?.expires_at, at(24 * HOUR).toISOString());
          await assert.rejects(
            ports.authenticator.authenticate(pass.key, at(24 * HOUR)),
            rejectsWith('payment_required'),
          );
        }));
    });

    describe('credit meter', () => {
      async function freeAccount(subject: Subject) {
        const account = await subject.ports.authenticator.authenticate(
          (await subject.createKey('free', T0)).key,
          T0,
        );
        assert.ok(account);
        return account;
      }

      it('a reservation is all or nothing: one misfit kind holds nothing', () =>
        withSubject(async (subject) => {
          const { meter } = subject.ports;
          const account = await freeAccount(subject);
          const refused = await meter.reserve(
            account,
            { api_calls: 10, profiles: FREE_PROFILES + 1 },
            T0,
          );
          assert.deepEqual(refused, {
            ok: false,
            kind: 'profiles',
            needed: FREE_PROFILES + 1,
            limit: FREE_PROFILES,
            remaining: FREE_PROFILES,
            resets_at: null,
          });
          const balance = await meter.balance(account, T0);
          assert.deepEqual(balance.api_calls, {
            limit: FREE_API_CALLS,
            used: 0,
            reserved: 0,
            remaining: FREE_API_CALLS,
            resets_at: null,
          });
          const tooMany = await meter.reserve(account, { api_calls: FREE_API_CALLS + 1 }, T0);
          assert.equal(tooMany.ok, false);
        }));

      it('commit with fewer than reserved releases the rest; refund returns everything', () =>
        withSubject(async (subject) => {
          const { meter } = subject.ports;
          const account = await freeAccount(subject);
          const held = await meter.reserve(account, { api_calls: 20, profiles: 2 }, T0);
          assert.ok(held.ok);
          assert.deepEqual((await meter.balance(account, T0)).api_calls, {
            limit: 50,
            used: 0,
            reserved: 20,
            remaining: 30,
            resets_at: null,
          });
          await meter.commit(held.reservation, { api_calls: 5, profiles: 1 });
          const afterCommit = await meter.balance(account, T0);
          assert.deepEqual(afterCommit.api_calls, {
            limit: 50,
            used: 5,
            reserved: 0,
            remaining: 45,
            resets_at: null,
          });
          assert.deepEqual(afterCommit.profiles, {
            limit: 5,
            used: 1,
            reserved: 0,
            remaining: 4,
            resets_at: null,
          });
          const refunded = await meter.reserve(account, { api_calls: 45, profiles: 4 }, T0);
          assert.ok(refunded.ok);
          assert.equal((await meter.balance(account, T0)).api_calls.remaining, 0);
          await meter.refund(refunded.reservation);
          assert.deepEqual((await meter.balance(account, T0)).api_calls, {
            limit: 50,
            used: 5,
            reserved: 0,
            remaining: 45,
            resets_at: null,
          });
        }));

      /** Reserves and commits `debits`: credits spent, as a completed request leaves them. */
      async function spent(
        meter: StatePorts['meter'],
        account: Account,
        debits: Debits,
        now: Date,
      ) {
        const held = await meter.reserve(account, debits, now);
        assert.ok(held.ok, 'the debits fit the allowance');
        await meter.commit(held.reservation);
        return held.reservation;
      }

      it('refundCommitted gives committed credits back in their period, never below zero', () =>
        withSubject(async (subject) => {
          const { meter } = subject.ports;
          const account = await freeAccount(subject);
          const reservation = await spent(meter, account, { api_calls: 10, profiles: 2 }, T0);
          // The charge as a record keeps it: plain data, no handle (it may outlive a restart).
          const charge = {
            account_id: account.id,
            period_start: reservation.period_start,
            debits: { api_calls: 4 },
          };
          await meter.refundCommitted(charge);
          const after = await meter.balance(account, T0);
          assert.deepEqual(after.api_calls, {
            limit: FREE_API_CALLS,
            used: 6,
            reserved: 0,
            remaining: FREE_API_CALLS - 6,
            resets_at: null,
          });
          assert.equal(after.profiles.used, 2, 'kinds not in the charge are untouched');
          await meter.refundCommitted({ ...charge, debits: { api_calls: 100, profiles: 2 } });
          const emptied = await meter.balance(account, T0);
          assert.equal(emptied.api_calls.used, 0);
          assert.equal(emptied.profiles.used, 0);
        }));

      it('refundCommitted of an earlier month leaves the current month alone', () =>
        withSubject(async (subject) => {
          const { meter } = subject.ports;
          const account = await subject.ports.authenticator.authenticate(
            (await subject.createKey('starter', T0)).key,
            T0,
          );
          assert.ok(account);
          const earlier = await spent(meter, account, { statements: 1 }, T0);
          const later = at(40 * 24 * HOUR); // a monthly plan's next period, whatever day it renews
          const current = await spent(meter, account, { statements: 1 }, later);
          assert.notEqual(current.period_start, earlier.period_start);
          await meter.refundCommitted({
            account_id: account.id,
            period_start: earlier.period_start,
            debits: { statements: 1 },
          });
          assert.equal((await meter.balance(account, later)).statements.used, 1);
          assert.equal((await meter.balance(account, T0)).statements.used, 0);
        }));

      it('a plan with no cap counts usage and never refuses', () =>
        withSubject(async ({ ports, createKey }) => {
          const account = await ports.authenticator.authenticate(
            (await createKey('unlimited', T0)).key,
            T0,
          );
          assert.ok(account);
          const held = await ports.meter.reserve(account, { api_calls: 1_000_000 }, T0);
          assert.ok(held.ok);
          await ports.meter.commit(held.reservation);
          const balance = await ports.meter.balance(account, T0);
          assert.equal(balance.api_calls.used, 1_000_000);
          assert.equal(balance.api_calls.limit, null);
          assert.equal(balance.api_calls.remaining, null);
        }));

      it('64 concurrent reserve+commit against a 50-credit allowance serve exactly 50', () =>
        withSubject(async (subject) => {
          const { meter } = subject.ports;
          const account = await freeAccount(subject);
          const outcomes = await Promise.all(
            Array.from({ length: 64 }, async () => {
              const outcome = await meter.reserve(account, { api_calls: 1 }, T0);
              if (!outcome.ok) return false;
              await turn(); // others reserve while this one "runs"
              await meter.commit(outcome.reservation);
              return true;
            }),
          );
          assert.equal(outcomes.filter(Boolean).length, FREE_API_CALLS);
          assert.deepEqual((await meter.balance(account, T0)).api_calls, {
            limit: 50,
            used: 50,
            reserved: 0,
            remaining: 0,
            resets_at: null,
          });
        }));
    });

    describe('keyless limiter', () => {
      it('takes all or nothing per request, per IP, and refunds', () =>
        withSubject(async ({ ports: { keyless } }) => {
          const resets = '2026-03-11T00:00:00.000Z';
          assert.deepEqual(await keyless.take('203.0.113.7', 10, T0), {
            ok: true,
            remaining: 90,
            resets_at: resets,
          });
          assert.deepEqual(await keyless.take('203.0.113.7', 91, T0), {
            ok: false,
            remaining: 90,
            resets_at: resets,
          });
          assert.deepEqual(await keyless.take('203.0.113.7', 90, T0), {
            ok: true,
            remaining: 0,
            resets_at: resets,
          });
          assert.equal((await keyless.take('203.0.113.7', 1, T0)).ok, false);
          assert.deepEqual(
            await keyless.take('203.0.113.8', 10, T0),
            { ok: true, remaining: 90, resets_at: resets },
            'another IP is separate',
          );
          await keyless.refund('203.0.113.7', 10, T0);
          assert.deepEqual(await keyless.take('203.0.113.7', 10, T0), {
            ok: true,
            remaining: 0,
            resets_at: resets,
          });
        }));

      it('every client starts again at 00:00 UTC', () =>
        withSubject(async ({ ports: { keyless } }) => {
          assert.ok((await keyless.take('198.51.100.1', KEYLESS_PER_DAY, T0)).ok);
          assert.equal(
            (await keyless.take('198.51.100.1', 1, new Date('2026-03-10T23:59:59.999Z'))).ok,
            false,
          );
          const next = await keyless.take('198.51.100.1', 1, new Date('2026-03-11T00:00:00.000Z'));
          assert.deepEqual(next, {
            ok: true,
            remaining: KEYLESS_PER_DAY - 1,
            resets_at: '2026-03-12T00:00:00.000Z',
          });
        }));
    });

    describe('idempotency', () => {
      const request = (
        key: string,
        fingerprint = `fp-${key}`,
        expiresAt = at(24 * HOUR),
      ): IdempotencyRequest => ({
        key,
        fingerprint,
        expiresAt,
        label: `request_id ${key}`,
      });
      /** One request as the service runs it: lead and run once, or replay. */
      async function runOnce(claim: Claim, run: () => Promise<unknown>): Promise<unknown> {
        if (claim.kind === 'replay') return claim.result;
        const result = await run();
        await claim.complete(result, T0);
        return result;
      }

      it('the first claim leads; later claims replay the saved result', () =>
        withSubject(async ({ ports: { idempotency } }) => {
          const first = await idempotency.claim('key_a', request('r1'), T0);
          assert.equal(first.kind, 'leader');
          await runOnce(first, async () => ({ rows: [1, 2, 3] }));
          const again = await idempotency.claim('key_a', request('r1'), at(1000));
          assert.equal(again.kind, 'replay');
          assert.deepEqual(await (again as Extract<Claim, { kind: 'replay' }>).result, {
            rows: [1, 2, 3],
          });
          assert.equal(
            (await idempotency.claim('key_b', request('r1'), at(1000))).kind,
            'leader',
            'keys are scoped per API key',
          );
        }));

      it('32 concurrent identical claims run once and all get the same result', () =>
        withSubject(async ({ ports: { idempotency } }) => {
          let runs = 0;
          const results = await Promise.all(
            Array.from({ length: 32 }, async () => {
              const claim = await idempotency.claim('key_a', request('r2'), T0);
              return runOnce(claim, async () => {
                runs++;
                await turn();
                return { run: runs };
              });
            }),
          );
          assert.equal(runs, 1);
          for (const result of results) assert.deepEqual(result, { run: 1 });
        }));

      it('the same key with another fingerprint is a conflict, while running and once saved', () =>
        withSubject(async ({ ports: { idempotency } }) => {
          const leader = await idempotency.claim('key_a', request('r3', 'one'), T0);
          await assert.rejects(
            idempotency.claim('key_a', request('r3', 'two'), T0),
            rejectsWith('conflict'),
          );
          await runOnce(leader, async () => 'done');
          await assert.rejects(
            idempotency.claim('key_a', request('r3', 'two'), at(1)),
            rejectsWith('conflict'),
          );
        }));

      it('an abandoned leader fails its followers and frees the key', () =>
        withSubject(async ({ ports: { idempotency } }) => {
          const leader = await idempotency.claim('key_a', request('r4'), T0);
          const follower = await idempotency.claim('key_a', request('r4'), T0);
          assert.ok(leader.kind === 'leader' && follower.kind === 'replay');
          leader.abandon(new AppError('internal', 'boom'));
          await assert.rejects(follower.result, rejectsWith('internal'));
          assert.equal((await idempotency.claim('key_a', request('r4'), at(1))).kind, 'leader');
        }));

      async function freeAccount(subject: Subject): Promise<Account> {
        const account = await subject.ports.authenticator.authenticate(
          (await subject.createKey('free', T0)).key,
          T0,
        );
        assert.ok(account);
        return account;
      }

      it('a leader saves its result and commits its charge together: replayed, debited once', () =>
        withSubject(async (subject) => {
          const { idempotency, meter } = subject.ports;
          const account = await freeAccount(subject);
          const held = await meter.reserve(account, { profiles: 1 }, T0);
          assert.ok(held.ok);
          const leader = await idempotency.claim(account.id, request('paid'), T0);
          const follower = await idempotency.claim(account.id, request('paid'), T0);
          assert.ok(leader.kind === 'leader' && follower.kind === 'replay');
          await leader.complete({ profile: 'one' }, T0, meter.charge(held.reservation));
          assert.deepEqual(await follower.result, { profile: 'one' });
          const again = await idempotency.claim(account.id, request('paid'), at(1));
          assert.equal(again.kind, 'replay');
          assert.deepEqual(await (again as Extract<Claim, { kind: 'replay' }>).result, {
            profile: 'one',
          });
          await subject.ports.flush();
          const balance = (await meter.balance(account, at(2))).profiles;
          assert.deepEqual(
            { used: balance.used, reserved: balance.reserved },
            { used: 1, reserved: 0 },
          );
          const stored = await subject.stored?.(account.id, 'paid', account.id);
          if (stored !== undefined)
            assert.deepEqual(stored, { result: '{"profile":"one"}', usedProfiles: 1 });
        }));

      for (const target of ['record', 'charge'] as const) {
        it(`a completion whose ${target} write fails saves nothing and charges nothing`, (t) =>
          withSubject(async (subject) => {
            if (subject.sabotage === undefined || subject.stored === undefined) {
              t.diagnostic('no storage to sabotage: memory writes cannot fail half-way');
              return;
            }
            const { idempotency, meter } = subject.ports;
            const account = await freeAccount(subject);
            const held = await meter.reserve(account, { profiles: 1 }, T0);
            assert.ok(held.ok);
            const leader = await idempotency.claim(account.id, request('unpaid'), T0);
            const follower = await idempotency.claim(account.id, request('unpaid'), T0);
            assert.ok(leader.kind === 'leader' && follower.kind === 'replay');
            const heal = await subject.sabotage(target);
            try {
              await assert.rejects(
                leader.complete({ profile: 'lost' }, T0, meter.charge(held.reservation)),
              );
            } finally {
              await heal();
            }
            await assert.rejects(follower.result, 'a follower is never handed an unsaved result');
            await subject.ports.flush();
            assert.deepEqual(await subject.stored(account.id, 'unpaid', account.id), {
              result: null,
              usedProfiles: 0,
            });
            const balance = (await meter.balance(account, at(1))).profiles;
            assert.deepEqual(
              { used: balance.used, reserved: balance.reserved },
              { used: 0, reserved: 0 },
              'the reservation was refunded',
            );
            // The key is free again: the retry runs and pays once.
            const retry = await idempotency.claim(account.id, request('unpaid'), at(2));
            assert.equal(retry.kind, 'leader');
            const again = await meter.reserve(account, { profiles: 1 }, at(2));
            assert.ok(again.ok);
            await (retry as Extract<Claim, { kind: 'leader' }>).complete(
              { profile: 'second' },
              at(2),
              meter.charge(again.reservation),
            );
            await subject.ports.flush();
            assert.deepEqual(await subject.stored(account.id, 'unpaid', account.id), {
              result: '{"profile":"second"}',
              usedProfiles: 1,
            });
          }));
      }

      it('an expired record is not replayed', () =>
        withSubject(async ({ ports: { idempotency } }) => {
          const leader = await idempotency.claim('key_a', request('r5', 'fp', at(HOUR)), T0);
          await runOnce(leader, async () => 'first');
          assert.equal(
            (await idempotency.claim('key_a', request('r5', 'fp', at(HOUR)), at(HOUR - 1))).kind,
            'replay',
          );
          const later = await idempotency.claim(
            'key_a',
            request('r5', 'other', at(3 * HOUR)),
            at(HOUR),
          );
          assert.equal(later.kind, 'leader', 'expired: even another fingerprint leads');
        }));
    });

    describe('watches', () => {
      it('are scoped per key, idempotent per pair, listed and removed', () =>
        withSubject(async ({ ports: { watches } }) => {
          const watch = await watches.create('key_a', 'src-1', 'REC-1', T0);
          assert.match(watch.watch_id, /^wl_[0-9a-f]{20}$/);
          assert.deepEqual(watch, {
            watch_id: watch.watch_id,
            key_id: 'key_a',
            source_id: 'src-1',
            record_key: 'REC-1',
            created_at: T0.toISOString(),
          });
          assert.deepEqual(
            await watches.create('key_a', 'src-1', 'REC-1', at(1)),
            watch,
            'the same pair again is the same watch',
          );
          const other = await watches.create('key_a', 'src-1', 'REC-2', T0);
          assert.notEqual(other.watch_id, watch.watch_id);
          const theirs = await watches.create('key_b', 'src-1', 'REC-1', T0);
          assert.notEqual(
            theirs.watch_id,
            watch.watch_id,
            'the same pair under another key is another watch',
          );
          assert.deepEqual(
            (await watches.list('key_a')).map((w) => w.watch_id).sort(),
            [watch.watch_id, other.watch_id].sort(),
          );
          assert.deepEqual(await watches.list('key_b'), [theirs]);
          assert.deepEqual(await watches.find('key_a', watch.watch_id), watch);
          await assert.rejects(
            watches.find('key_b', watch.watch_id),
            rejectsWith('not_found'),
            "another key's watch is not found",
          );
          await assert.rejects(watches.remove('key_b', watch.watch_id), rejectsWith('not_found'));
          assert.deepEqual(await watches.remove('key_a', watch.watch_id), watch);
          await assert.rejects(watches.find('key_a', watch.watch_id), rejectsWith('not_found'));
          assert.deepEqual(await watches.list('key_a'), [other]);
          assert.deepEqual(
            await watches.list('key_b'),
            [theirs],
            "removing one key's watch leaves the other's",
          );
        }));

      it(`a key holds at most ${limits.accounts.watchesPerKeyMax} watches, also under concurrent creates`, () =>
        withSubject(async ({ ports: { watches } }) => {
          const create = (i: number) => watches.create('key_a', 'src-1', `REC-${i}`, T0);
          await Promise.all(
            Array.from({ length: limits.accounts.watchesPerKeyMax - 2 }, (_, i) => create(i)),
          );
          const settled = await Promise.allSettled(
            Array.from({ length: 5 }, (_, i) => create(limits.accounts.watchesPerKeyMax + i)),
          );
          assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 2);
          for (const refused of settled.filter((s) => s.status === 'rejected'))
            assert.ok(rejectsWith('conflict')(refused.reason));
          assert.equal((await watches.list('key_a')).length, limits.accounts.watchesPerKeyMax);
          assert.deepEqual(
            (await create(0)).record_key,
            'REC-0',
            'an existing pair is still returned at the maximum',
          );
          assert.equal(
            (await watches.create('key_b', 'src-1', 'REC-0', T0)).key_id,
            'key_b',
            'other keys are unaffected',
          );
        }));
    });
  });
}

/** Which sub-database of the accounts environment holds each target's write. */
const lmdbTables: Record<Target, SubDatabaseName> = { record: 'idempotency', charge: 'usage' };

/**
 * Makes the store's sub-databases (opened after this) throw from `put` while their target is sabotaged: the
 * failure happens inside the write transaction that lmdb-js runs, as a failing write would, and must abort it.
 */
function lmdbSabotage(store: AccountStore): (target: Target) => Promise<() => Promise<void>> {
  const failing = failingPuts(store);
  return async (target) => {
    failing.add(lmdbTables[target]);
    return async () => {
      failing.delete(lmdbTables[target]);
    };
  };
}

/** The saved result (the store's documented layout, "r <key id> <key>") and the usage rows of the account. */
async function lmdbStored(
  store: AccountStore,
  keyId: string,
  key: string,
  accountId: string,
): Promise<Stored> {
  const record = store.subDatabase<{ result: string }>('idempotency').get(`r ${keyId} ${key}`);
  let usedProfiles = 0;
  const usage = store.subDatabase<{ profiles?: number }>('usage');
  for (const { value } of usage.getRange({ start: `${accountId}|`, end: `${accountId}|\uffff` }))
    usedProfiles += value.profiles ?? 0;
  return { result: record?.result ?? null, usedProfiles };
}

stateContract('LMDB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-contract-'));
  const store = AccountStore.open(dir);
  const sabotage = lmdbSabotage(store);
  const ports = lmdbPorts(store);
  return {
    ports,
    createKey: (plan, now, label) => store.createKey(plan, now, label),
    revokeKey: (id, now) => store.revokeKey(id, now),
    stored: (keyId, key, accountId) => lmdbStored(store, keyId, key, accountId),
    sabotage,
    async close() {
      await ports.flush();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

stateContract('memory', () => {
  const ports = memoryPorts();
  return {
    ports,
    createKey: ports.createKey,
    revokeKey: ports.revokeKey,
    close: () => ports.flush(),
  };
});

/**
 * A REST front thread's ports: every call crosses a real MessagePort (structured clone, errors as data) to the LMDB
 * ports, as src/transport/http/threads/ wires them between threads; `leased`: credits through leases of the main
 * thread's ledger, as a front thread runs.
 */
async function remoteSubject(leased: boolean): Promise<Subject> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-contract-'));
  const store = AccountStore.open(dir);
  const sabotage = lmdbSabotage(store);
  const local = lmdbPorts(store);
  const { port1, port2 } = new MessageChannel();
  // A failure that is no AppError is a bug the main thread logs (the front thread sees 'internal'); here it fails
  // the test, except the writes a test sabotaged on purpose.
  const bug = (thrown: unknown) => {
    if (thrown instanceof Error && thrown.message.startsWith('injected:')) return;
    throw thrown;
  };
  new RpcLink(port1, servePorts(local, local.leaseLedger).handlers, bug);
  const link = new RpcLink(port2, {}, bug);
  const remote = remotePorts(link);
  const meter = leased ? new LeasedMeter(remoteLeaseLedger(link), remote.meter) : null;
  await meter?.start();
  return {
    ports: meter === null ? remote : { ...remote, meter, flush: () => meter.flush() },
    createKey: (plan, now, label) => store.createKey(plan, now, label),
    revokeKey: (id, now) => store.revokeKey(id, now),
    stored: (keyId, key, accountId) => lmdbStored(store, keyId, key, accountId),
    sabotage,
    async close() {
      await meter?.close();
      port1.close();
      await local.flush();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The saved result and the account's used profile credits, read with plain SQL. */
async function pgStored(
  pool: pg.Pool,
  keyId: string,
  key: string,
  accountId: string,
): Promise<Stored> {
  const record = await pool.query<{ result: string | null }>(
    'SELECT result FROM idempotency WHERE key_id = $1 AND key = $2',
    [keyId, key],
  );
  const usage = await pool.query<{ used: string | null }>(
    'SELECT sum(used_profiles) AS used FROM credit_usage WHERE account_id = $1',
    [accountId],
  );
  return {
    result: record.rows[0]?.result ?? null,
    usedProfiles: Number(usage.rows[0]?.used ?? 0),
  };
}

/**
 * A trigger that raises when the target is written: a result saved into an idempotency row, or credits moved to
 * used (a refund or a returned lease, which only lower `reserved`, still pass).
 */
async function pgSabotage(pool: pg.Pool, target: Target): Promise<() => Promise<void>> {
  const [table, written] =
    target === 'record'
      ? ['idempotency', 'NEW.result IS NOT NULL']
      : [
          'credit_usage',
          creditKinds.map((kind) => `NEW.used_${kind} <> OLD.used_${kind}`).join(' OR '),
        ];
  await pool.query(`CREATE FUNCTION sabotage() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF ${written} THEN RAISE EXCEPTION 'injected: the ${table} write fails'; END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER sabotage BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION sabotage()`);
  return async () => {
    await pool.query(`DROP TRIGGER sabotage ON ${table}; DROP FUNCTION sabotage()`);
  };
}

/**
 * Several nodes' shared state: the same ports over PostgreSQL, one fresh schema per subject; `leased`: the credit
 * meter spends leases of the shared ledger, as `serve` runs with a database URL (Free keys hold fewer credits than
 * the exact-mode mark, so every lease holds exactly what running requests need and balances read as without leases).
 */
async function pgSubject(leased: boolean): Promise<Subject> {
  const schema = await createTestSchema();
  const pool = openPool(schema.url);
  await migrate(pool);
  const shared = pgPorts(pool);
  const meter = leased ? new LeasedMeter(new PgLeaseLedger(pool, 'contract'), shared.ledger) : null;
  await meter?.start();
  const flush = async () => {
    await Promise.all([meter?.flush(), shared.flush()]);
  };
  return {
    ports: meter === null ? shared : { ...shared, meter, flush },
    createKey: (plan, now, label) => shared.keys.createKey(plan, now, label),
    revokeKey: (id, now) => shared.keys.revokeKey(id, now),
    stored: (keyId, key, accountId) => pgStored(pool, keyId, key, accountId),
    sabotage: (target) => pgSabotage(pool, target),
    async close() {
      await meter?.close();
      await shared.flush();
      await pool.end();
      await schema.drop();
    },
  };
}

stateContract('remote, over a MessagePort to LMDB', () => remoteSubject(false));
stateContract('remote, credits through leases of LMDB over a MessagePort', () =>
  remoteSubject(true),
);
stateContract('PostgreSQL', () => pgSubject(false));
stateContract('PostgreSQL, credits through leases', () => pgSubject(true));
