// Work that fails after admission costs nothing: keyed reservations are refunded, and a keyless request
// gets its daily allowance back. The pool here fails every task, as a crashed or mismatched worker would.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { composeIBAN } from 'ibantools';
import { AccountStore } from '../../src/accounts/account-store.js';
import { lmdbPorts, type LmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { AppError } from '../../src/errors.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import type { AnyOp } from '../../src/contract/op.js';
import { ibanValidate } from '../../src/ops/iban/validate.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { Service } from '../../src/service/execute.js';

const op: AnyOp = ibanValidate;
const now = new Date('2026-06-01T12:00:00Z');
let dir: string;
let accounts: AccountStore;
let state: LmdbPorts;
let service: Service;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ibanqa-refunds-'));
  accounts = AccountStore.open(dir);
  state = lmdbPorts(accounts);
  service = new Service({
    state,
    data: { bank: createMemoryDirectory([]) },
    runner: { runInPool: () => Promise.reject(new AppError('unavailable', 'the worker failed')) },
    poolThresholdRows: 1,
    validators: new Map([[op.name, compileInputValidator(op)]]),
    now: () => now,
  });
});
after(async () => {
  await accounts.close();
  rmSync(dir, { recursive: true, force: true });
});

const ibans = ['DE', 'NL', 'FR'].map(
  (country, index) =>
    composeIBAN({
      countryCode: country,
      bban: ['370400440532013000', 'ABNA0417164300', '20041010050500013M02606'][index] as string,
    }) as string,
);

test('a keyed request whose work fails is refunded every credit it reserved', async () => {
  const created = accounts.createKey('pro', now);
  await assert.rejects(
    service.execute(op, { ibans }, { apiKey: created.key, ip: '192.0.2.1' }),
    /the worker failed/,
  );
  const balance = state.ledger.balance(created, now);
  assert.deepEqual(
    [balance.api_calls.used, balance.api_calls.reserved, balance.bic_reveals.used],
    [0, 0, 0],
  );
});

test('a keyless request whose work fails gets its daily allowance back', async () => {
  const before = (await state.keyless.take('192.0.2.7', 0, now)).remaining;
  await assert.rejects(
    service.execute(op, { ibans }, { apiKey: undefined, ip: '192.0.2.7' }),
    /the worker failed/,
  );
  assert.equal((await state.keyless.take('192.0.2.7', 0, now)).remaining, before);
});
