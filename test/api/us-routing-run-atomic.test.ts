// Goal: a US routing run's saved result and its debit are durable together or not at all, end to end through the
// execute path: when either write fails, nothing is saved and nothing charged, and the retry runs and pays once
// (before, the result was saved first, so a failed debit left a run that every retry replayed free). Method: the
// execute path (Service) over the real LMDB ports; a write fails by an injected throwing `put` on one sub-database
// of the accounts environment, inside the transaction lmdb-js runs. The stored record and usage are read from LMDB
// directly; a 2-number run is quoted 2 API credits (README "Quote and run": api_calls = number of routing_numbers).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AccountStore, type SubDatabaseName } from '../../src/accounts/account-store.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import type { AnyOp } from '../../src/contract/op.js';
import { usRoutingRun } from '../../src/ops/us-routing/run.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { emptyRoutingDirectory } from '../../src/registry/routing-directory.js';
import { Service } from '../../src/service/execute.js';
import { newRequestId } from './us-routing-helpers.js';
import { failingPuts } from '../helpers/failing-puts.js';

const runOp: AnyOp = usRoutingRun;
const now = new Date();
const QUOTE = 2;
let dataDir: string;
let accounts: AccountStore;
let service: Service;
let rawKey: string;
let accountId: string;
/** The sub-databases whose puts throw right now. */
let failing: Set<SubDatabaseName>;

before(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-run-atomic-'));
  accounts = AccountStore.open(dataDir);
  failing = failingPuts(accounts);
  const created = accounts.createKey('business', now);
  [rawKey, accountId] = [created.key, created.id];
  service = new Service({
    state: lmdbPorts(accounts),
    data: { bank: createMemoryDirectory([]), routing: emptyRoutingDirectory },
    runner: { runInPool: () => Promise.reject(new Error('every op here runs inline')) },
    poolThresholdRows: 1_000_000,
    validators: new Map([[runOp.name, compileInputValidator(runOp)]]),
    now: () => now,
  });
});
after(async () => {
  failing.clear();
  await accounts.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const run = (body: unknown) => service.execute(runOp, body, { apiKey: rawKey, ip: '127.0.0.1' });

/** What LMDB holds: the saved run (the store's layout, "r <key id> <key>") and the key's used API credits. */
function stored(requestId: string): { saved: boolean; used: number } {
  const record = accounts
    .subDatabase<{ result: string }>('idempotency')
    .get(`r ${accountId} us_routing.run|${requestId}`);
  let used = 0;
  for (const { value } of accounts
    .subDatabase<{ api_calls?: number }>('usage')
    .getRange({ start: `${accountId}|`, end: `${accountId}|\uffff` }))
    used += value.api_calls ?? 0;
  return { saved: record !== undefined, used };
}

describe('a US routing run saves its result and debits it in one transaction', () => {
  for (const [table, what] of [
    ['usage', 'its debit'],
    ['idempotency', 'its result'],
  ] as const) {
    it(`when writing ${what} fails, nothing is saved or charged, and the retry runs and pays once`, async () => {
      const usedBefore = stored('none').used;
      const body = {
        routing_numbers: ['011000015', '021000021'],
        max_credits: QUOTE,
        request_id: newRequestId(now.getTime()),
      };
      failing.add(table);
      try {
        await assert.rejects(run(body), /injected/);
      } finally {
        failing.delete(table);
      }
      assert.deepEqual(stored(body.request_id), { saved: false, used: usedBefore });
      const retry = await run(body);
      assert.equal((retry.output as { replayed: boolean }).replayed, false, 'the retry runs');
      assert.deepEqual(stored(body.request_id), { saved: true, used: usedBefore + QUOTE });
      const replay = await run(body);
      assert.equal((replay.output as { replayed: boolean }).replayed, true);
      assert.deepEqual(stored(body.request_id), { saved: true, used: usedBefore + QUOTE });
    });
  }
});
