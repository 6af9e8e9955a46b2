// Goal: credit leases keep the ledger exact whoever holds them (nodes on PostgreSQL, front threads on the LMDB or
// in-memory ledger): leases never overspend, credits returned on close are reusable at once, a dead holder's lease
// is reclaimed after its expiry with its spent credits still spent, and a late spend against a reclaimed lease is
// refused (never counted twice nor lost silently). Method: one suite, a function of a factory, each subject three
// holders (LeasedMeter) over one authoritative ledger: one Meter (memory, LMDB) or three pg pools on one schema.
// Allowances are the spec's published figures (Starter: 200 BIC reveals a month; Free: 50 API calls for life; Pro:
// 10,000 API calls a month).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { AccountStore } from '../../src/accounts/account-store.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { memoryPorts } from '../../src/accounts/memory-ports.js';
import { LeasedMeter } from '../../src/accounts/meter-leased.js';
import { MeterLeaseLedger } from '../../src/accounts/meter-leases.js';
import type { Meter } from '../../src/accounts/meter.js';
import type { PlanId } from '../../src/domain/plans/plans.js';
import type { Account, CreditMeter, KindBalance, StatePorts } from '../../src/ports/index.js';
import type { LeaseLedger } from '../../src/ports/credits-lease.js';
import { PgLeaseLedger } from '../../src/postgres/meter-leases.js';
import { migrate } from '../../src/postgres/migrate.js';
import { openPool } from '../../src/postgres/pool.js';
import { pgPorts } from '../../src/postgres/ports.js';
import { createTestSchema } from '../helpers/postgres.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');
const STARTER_BIC_REVEALS = 200;
const FREE_API_CALLS = 50;
const PRO_API_CALLS = 10_000;
const TTL_MS = 30_000;

/** A balance without its renewal date (calendar months; not what leases change). */
function counts({ limit, used, reserved, remaining }: KindBalance) {
  return { limit, used, reserved, remaining };
}

interface Subject {
  /** Each holder's lease ledger (one per node on PostgreSQL; the one ledger of the process otherwise). */
  readonly leaseLedgers: readonly LeaseLedger[];
  /** The authoritative ledger: balances as every holder sees them. */
  readonly ledger: Pick<CreditMeter, 'balance' | 'refundCommitted'>;
  readonly ports: StatePorts;
  createAccount(plan: PlanId): Promise<Account>;
  close(): Promise<void>;
}

/** The ledger's operations, some replaced (to count or hold them); the others go to the ledger itself. */
function overriding(ledger: LeaseLedger, replaced: Partial<LeaseLedger>): LeaseLedger {
  return {
    grant: (request) => ledger.grant(request),
    spend: (spends, expiresAt) => ledger.spend(spends, expiresAt),
    giveBack: (leaseId, amount) => ledger.giveBack(leaseId, amount),
    renew: (leaseIds, expiresAt) => ledger.renew(leaseIds, expiresAt),
    reclaimExpired: (now) => ledger.reclaimExpired(now),
    ...replaced,
  };
}

/** A fake wall clock, so expiry is tested without waiting for it. */
function holdersOf(subject: Subject, clock: () => number): LeasedMeter[] {
  return [0, 1, 2].map(
    (i) =>
      new LeasedMeter(
        subject.leaseLedgers[i % subject.leaseLedgers.length] as LeaseLedger,
        subject.ledger,
        { ttlMs: TTL_MS, clock },
      ),
  );
}

function leaseContract(name: string, open: () => Promise<Subject>): void {
  async function withSubject(body: (subject: Subject) => Promise<void>): Promise<void> {
    const subject = await open();
    try {
      await body(subject);
    } finally {
      await subject.close();
    }
  }

  describe(`credit leases contract: ${name}`, () => {
    it('64 spenders over three holders on one Starter key are served exactly 200 BIC reveals', () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('starter');
        const holders = holdersOf(subject, () => T0.getTime());
        let served = 0;
        const spender = async (first: number) => {
          for (let refusals = 0, at = first; refusals < holders.length; at++) {
            const holder = holders[at % holders.length] as LeasedMeter;
            const outcome = await holder.reserve(account, { bic_reveals: 1 }, T0);
            if (!outcome.ok) {
              refusals++;
              continue;
            }
            refusals = 0;
            await turn();
            await holder.commit(outcome.reservation);
            served++;
          }
        };
        await Promise.all(Array.from({ length: 64 }, (_, i) => spender(i)));
        assert.equal(served, STARTER_BIC_REVEALS);
        await Promise.all(holders.map((holder) => holder.close()));
        assert.deepEqual(counts((await subject.ledger.balance(account, T0)).bic_reveals), {
          limit: STARTER_BIC_REVEALS,
          used: STARTER_BIC_REVEALS,
          reserved: 0,
          remaining: 0,
        });
      }));

    it('plenty left: 100-credit requests top the lease up by the rate (within a sixteenth of what is left), not per request', () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('pro');
        const ledger = subject.leaseLedgers[0] as LeaseLedger;
        const grants: number[] = [];
        const counting = overriding(ledger, {
          grant: async (request) => {
            const grant = await ledger.grant(request);
            grants.push(grant.granted);
            return grant;
          },
        });
        const holder = new LeasedMeter(counting, subject.ledger, {
          ttlMs: TTL_MS,
          clock: () => T0.getTime(),
        });
        const requests = 40;
        for (let i = 0; i < requests; i++) {
          const outcome = await holder.reserve(account, { api_calls: 100 }, T0);
          assert.ok(outcome.ok);
          await holder.commit(outcome.reservation);
        }
        const balance = counts((await subject.ledger.balance(account, T0)).api_calls);
        assert.equal(balance.used, requests * 100);
        assert.ok(
          grants.length <= requests / 4,
          `${grants.length} grants for ${requests} requests`,
        );
        // What the ledger reports leased: never more than a sixteenth of the allowance left at a grant.
        assert.ok(balance.reserved <= PRO_API_CALLS / 16, `${balance.reserved} held`);
        assert.equal(balance.used + balance.reserved + (balance.remaining ?? 0), PRO_API_CALLS);
        await holder.close();
        assert.equal((await subject.ledger.balance(account, T0)).api_calls.reserved, 0);
      }));

    it('spends committed while a spend transaction is on its way go as one transaction when it lands', () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('pro');
        const ledger = subject.leaseLedgers[0] as LeaseLedger;
        const spendCalls: number[][] = [];
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const gated = overriding(ledger, {
          spend: async (spends, expiresAt) => {
            spendCalls.push(spends.map((spend) => spend.amount));
            if (spendCalls.length === 1) await gate;
            return ledger.spend(spends, expiresAt);
          },
        });
        const holder = new LeasedMeter(gated, subject.ledger, {
          ttlMs: TTL_MS,
          clock: () => T0.getTime(),
        });
        // Reserved first, so each commit lands in its own turn whatever the reservation waited for.
        const commitOne = async () => {
          const outcome = await holder.reserve(account, { api_calls: 1 }, T0);
          assert.ok(outcome.ok);
          return () => holder.commit(outcome.reservation).then(() => acknowledged++);
        };
        let acknowledged = 0;
        const first = (await commitOne())();
        while (spendCalls.length === 0) await turn();
        // Nine more over nine turns: none is acknowledged before its transaction commits, and none is sent yet.
        const later: Promise<unknown>[] = [];
        for (let i = 0; i < 9; i++) {
          later.push((await commitOne())());
          await turn();
        }
        assert.equal(spendCalls.length, 1);
        assert.equal(acknowledged, 0);
        release();
        await Promise.all([first, ...later]);
        assert.deepEqual(spendCalls, [[1], [9]]);
        assert.equal((await subject.ledger.balance(account, T0)).api_calls.used, 10);
        await holder.close();
        assert.equal((await subject.ledger.balance(account, T0)).api_calls.reserved, 0);
      }));

    it('few credits left: each of 64 concurrent single-credit requests is exact, the last credit served once', () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('free');
        const holders = holdersOf(subject, () => T0.getTime());
        const outcomes = await Promise.all(
          Array.from({ length: 64 }, async (_, i) => {
            const holder = holders[i % holders.length] as LeasedMeter;
            const outcome = await holder.reserve(account, { api_calls: 1 }, T0);
            if (!outcome.ok) return false;
            await turn();
            await holder.commit(outcome.reservation);
            return true;
          }),
        );
        assert.equal(outcomes.filter(Boolean).length, FREE_API_CALLS);
        const balance = (await subject.ledger.balance(account, T0)).api_calls;
        assert.equal(balance.used, FREE_API_CALLS);
        assert.equal(balance.reserved, 0, 'exact leases hold nothing between requests');
        await Promise.all(holders.map((holder) => holder.close()));
      }));

    it("credits a holder gives back on close are another holder's at once", () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('starter');
        const [first, second] = holdersOf(subject, () => T0.getTime()) as [
          LeasedMeter,
          LeasedMeter,
        ];
        for (let i = 0; i < 10; i++) {
          const outcome = await first.reserve(account, { bic_reveals: 1 }, T0);
          assert.ok(outcome.ok);
          await first.commit(outcome.reservation);
        }
        const held = (await subject.ledger.balance(account, T0)).bic_reveals;
        assert.equal(held.used, 10);
        assert.ok(held.reserved > 0, 'the lease holds credits beyond what was spent');
        await first.close();
        const rest = await second.reserve(account, { bic_reveals: STARTER_BIC_REVEALS - 10 }, T0);
        assert.ok(rest.ok, 'every credit the first holder did not spend is back');
        await second.refund(rest.reservation);
        await second.close();
        assert.deepEqual((await subject.ledger.balance(account, T0)).bic_reveals.reserved, 0);
      }));

    it('a live holder renews its leases and gives back one nobody used for a renewal period', () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('starter');
        const ttlMs = 300; // renewals every 100 ms
        const holder = new LeasedMeter(subject.leaseLedgers[0] as LeaseLedger, subject.ledger, {
          ttlMs,
        });
        await holder.start();
        try {
          // The first top-up is one credit (no rate yet); the next is sized by the rate and holds more.
          for (let i = 0; i < 5; i++) {
            const outcome = await holder.reserve(account, { bic_reveals: 1 }, T0);
            assert.ok(outcome.ok);
            await holder.commit(outcome.reservation);
          }
          assert.ok((await subject.ledger.balance(account, T0)).bic_reveals.reserved > 0);
        } catch (error) {
          await holder.close();
          throw error;
        }
        await sleep(ttlMs * 2);
        // Renewed past its first expiry: nobody reclaims it. ...
        const others = subject.leaseLedgers.at(-1) as LeaseLedger;
        await others.reclaimExpired(new Date());
        const after = counts((await subject.ledger.balance(account, T0)).bic_reveals);
        // ... and, idle since, its unspent credits are back; the spent one stays spent.
        assert.deepEqual(after, {
          limit: STARTER_BIC_REVEALS,
          used: 5,
          reserved: 0,
          remaining: STARTER_BIC_REVEALS - 5,
        });
        await holder.close();
      }));

    it("a dead holder's lease is reclaimed after its expiry; its spent credits stay spent, a late spend is refused", () =>
      withSubject(async (subject) => {
        const account = await subject.createAccount('starter');
        let nowMs = T0.getTime();
        const [dead] = holdersOf(subject, () => nowMs) as [LeasedMeter];
        for (let i = 0; i < 5; i++) {
          const outcome = await dead.reserve(account, { bic_reveals: 1 }, T0);
          assert.ok(outcome.ok);
          await dead.commit(outcome.reservation);
        }
        const running = await dead.reserve(account, { bic_reveals: 1 }, T0);
        assert.ok(running.ok);
        const ledgerOfOthers = subject.leaseLedgers.at(-1) as LeaseLedger;
        assert.equal(
          await ledgerOfOthers.reclaimExpired(new Date(nowMs + TTL_MS - 1)),
          0,
          'not yet expired',
        );
        nowMs += TTL_MS + 1;
        assert.ok((await ledgerOfOthers.reclaimExpired(new Date(nowMs))) >= 1);
        assert.deepEqual(counts((await subject.ledger.balance(account, T0)).bic_reveals), {
          limit: STARTER_BIC_REVEALS,
          used: 5,
          reserved: 0,
          remaining: STARTER_BIC_REVEALS - 5,
        });
        await assert.rejects(dead.commit(running.reservation), /no longer holds/);
        assert.equal((await subject.ledger.balance(account, T0)).bic_reveals.used, 5);
      }));
  });
}

/** Three holders of one in-process ledger, as the front threads of one node hold the main thread's. */
function inProcess(ports: StatePorts & { readonly ledger: Meter }) {
  const leaseLedger = new MeterLeaseLedger(ports.ledger);
  return { leaseLedgers: [leaseLedger], ledger: ports.meter, ports };
}

leaseContract('memory', async () => {
  const ports = memoryPorts();
  return {
    ...inProcess(ports),
    createAccount: async (plan) =>
      (await ports.authenticator.authenticate(ports.createKey(plan, T0).key, T0)) as Account,
    close: () => ports.flush(),
  };
});

leaseContract('LMDB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-leases-'));
  const store = AccountStore.open(dir);
  const ports = lmdbPorts(store);
  return {
    ...inProcess(ports),
    createAccount: async (plan) =>
      (await ports.authenticator.authenticate(store.createKey(plan, T0).key, T0)) as Account,
    async close() {
      await ports.flush();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

leaseContract('PostgreSQL, three pools as nodes', async () => {
  const schema = await createTestSchema();
  const pools: pg.Pool[] = [0, 1, 2].map(() => openPool(schema.url));
  await migrate(pools[0] as pg.Pool);
  const nodes = pools.map((pool) => pgPorts(pool));
  const first = nodes[0] as ReturnType<typeof pgPorts>;
  return {
    leaseLedgers: pools.map((pool, i) => new PgLeaseLedger(pool, `node-${i}`)),
    ledger: first.ledger,
    ports: first,
    createAccount: async (plan) =>
      (await first.authenticator.authenticate(
        (await first.keys.createKey(plan, T0)).key,
        T0,
      )) as Account,
    async close() {
      await Promise.all(nodes.map((node) => node.flush()));
      await Promise.all(pools.map((pool) => pool.end()));
      await schema.drop();
    },
  };
});
