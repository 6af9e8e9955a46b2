// Goal: a request_id lives 24 hours from its milliseconds: its saved run replays until then, and afterwards it is
// refused as expired while the record is swept. Method: the execute path (Service) with an injected clock, the
// real LMDB account store, meter and idempotency store; no transport (the clock cannot be moved over HTTP).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AccountStore } from '../../src/accounts/account-store.js';

import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import type { IdempotencyStore } from '../../src/accounts/idempotency-store.js';
import { Meter } from '../../src/accounts/meter.js';
import { AppError } from '../../src/errors.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import type { AnyOp } from '../../src/contract/op.js';
import { usRoutingProfile } from '../../src/ops/us-routing/profile.js';
import { usRoutingRun } from '../../src/ops/us-routing/run.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { emptyRoutingDirectory } from '../../src/registry/routing-directory.js';
import { Service } from '../../src/service/execute.js';
import { assertReplayOf, newRequestId } from './us-routing-helpers.js';

const hour = 60 * 60 * 1000;
/** The table's element type (ops are declared with their own input types). */
const runOp: AnyOp = usRoutingRun;
const profileOp: AnyOp = usRoutingProfile;
const start = new Date('2026-05-01T08:00:00.000Z');
let clock = start;
let dataDir: string;
let accounts: AccountStore;
let meter: Meter;
let idempotency: IdempotencyStore;
let service: Service;
let rawKey: string;

before(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-clock-'));
  accounts = AccountStore.open(dataDir);
  const state = lmdbPorts(accounts);
  meter = state.ledger;
  idempotency = state.records;
  rawKey = accounts.createKey('business', start).key;
  service = new Service({
    state,
    data: { bank: createMemoryDirectory([]), routing: emptyRoutingDirectory },
    runner: { runInPool: () => Promise.reject(new Error('every op here runs inline')) },
    poolThresholdRows: 1_000_000,
    validators: new Map([runOp, profileOp].map((op) => [op.name, compileInputValidator(op)])),
    now: () => clock,
  });
});
after(async () => {
  await accounts.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function apiCallsUsed(): number {
  const account = accounts.authenticate(rawKey, clock);
  assert.ok(account);
  return meter.balance(account, clock).api_calls.used;
}

const run = (body: unknown) => service.execute(runOp, body, { apiKey: rawKey, ip: '127.0.0.1' });

describe('request_id lifetime with an injected clock', () => {
  it('replays until 24 hours after its milliseconds, then is refused as expired; the record is swept', async () => {
    const body = {
      routing_numbers: ['011000015', '011000016'],
      max_credits: 2,
      request_id: newRequestId(start.getTime()),
    };
    const first = await run(body);
    assert.equal((first.output as { replayed: boolean }).replayed, false);
    assert.equal(apiCallsUsed(), 2);
    await idempotency.flush();

    clock = new Date(start.getTime() + 24 * hour - 1);
    const replay = await run(body);
    assert.equal((replay.output as { replayed: boolean }).replayed, true);
    assert.equal(apiCallsUsed(), 2, 'a replay debits nothing');

    clock = new Date(start.getTime() + 24 * hour);
    await assert.rejects(
      run(body),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'invalid_argument' &&
        /expired/.test(error.message),
    );
    assert.equal(apiCallsUsed(), 2, 'an expired request_id debits nothing');
    assert.ok(idempotency.sweep(clock, 100) >= 1, 'the expired record is swept');
    await idempotency.flush();

    const renewed = { ...body, request_id: newRequestId(clock.getTime()) };
    assert.equal(((await run(renewed)).output as { replayed: boolean }).replayed, false);
    assert.equal(apiCallsUsed(), 4, 'a new request_id runs and debits again');
  });

  it('a full profile replays for 24 hours from its creation, then is generated (and charged) again', async () => {
    clock = new Date(start.getTime() + 48 * hour);
    const profile = () =>
      service.execute(
        profileOp,
        { mode: 'synthetic', seed: 'clock', confirm_credit: true },
        { apiKey: rawKey, ip: '127.0.0.1' },
      );
    const profilesUsed = () =>
      meter.balance(accounts.authenticate(rawKey, clock)!, clock).profiles.used;
    const before = profilesUsed();
    const first = (await profile()).output;
    await idempotency.flush();
    clock = new Date(clock.getTime() + 23 * hour);
    const replay = (await profile()).output as Record<string, unknown>;
    assertReplayOf(replay, first as Record<string, unknown>);
    assert.equal(profilesUsed() - before, 1);
    clock = new Date(clock.getTime() + 2 * hour);
    const again = (await profile()).output as { replayed: boolean };
    assert.equal(again.replayed, false);
    assert.deepEqual(again, first, 'the same seed gives the same person');
    assert.equal(profilesUsed() - before, 2);
  });
});
