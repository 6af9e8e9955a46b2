// Goal: an op answers only with the error codes its declaration produces (src/ops/framework/refusals.ts), the set
// the OpenAPI document lists, so the contract cannot promise less than the service sends. Method: the real
// Service over LMDB ports with the validate op, whose pool runner fails with a chosen code: a declared code
// reaches the caller as it is, an undeclared one becomes 500 internal whose cause names the op and the code.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AccountStore } from '../../src/accounts/account-store.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { AppError, type ErrorCode } from '../../src/errors.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import type { AnyOp } from '../../src/contract/op.js';
import { refusalsOf } from '../../src/ops/framework/refusals.js';
import { ibanValidate } from '../../src/ops/iban/validate.js';
import { ops } from '../../src/ops/table.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { Service } from '../../src/service/execute.js';

const op: AnyOp = ibanValidate;
const now = new Date('2026-06-01T12:00:00Z');
let dir: string;
let accounts: AccountStore;
let failWith: ErrorCode = 'overloaded';
let service: Service;
let key: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ibanqa-refusals-'));
  accounts = AccountStore.open(dir);
  service = new Service({
    state: lmdbPorts(accounts),
    data: { bank: createMemoryDirectory([]) },
    runner: { runInPool: () => Promise.reject(new AppError(failWith, 'the pool refused')) },
    poolThresholdRows: 1,
    validators: new Map([[op.name, compileInputValidator(op)]]),
    now: () => now,
  });
  key = accounts.createKey('pro', now).key;
});
after(async () => {
  await accounts.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refusalOf(code: ErrorCode): Promise<AppError> {
  failWith = code;
  try {
    await service.execute(op, { ibans: ['DE89370400440532013000'] }, { apiKey: key, ip: '' });
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
  assert.fail('the call succeeded');
}

test('a declared code reaches the caller unchanged', async () => {
  assert.ok(refusalsOf(op).includes('overloaded'));
  const error = await refusalOf('overloaded');
  assert.equal(error.code, 'overloaded');
  assert.equal(error.message, 'the pool refused');
});

test('a code the op does not declare is a 500 that names the op and the code', async () => {
  assert.ok(!refusalsOf(op).includes('target_no_match'));
  const error = await refusalOf('target_no_match');
  assert.equal(error.code, 'internal');
  assert.equal(error.message, 'internal error');
  assert.match(
    String((error.cause as Error).message),
    /iban\.validate refused with target_no_match/,
  );
});

test('the refusals the issue found missing are declared where the service produces them', () => {
  const of = (name: string) => refusalsOf(ops.find((candidate) => candidate.name === name)!);
  // Spent profile credits: the op's exhaustedErrors; an unmatched bank context: its refusals.
  for (const name of ['profile.generate', 'profile.ai']) {
    assert.ok(of(name).includes('generation_limit_reached'), name);
    assert.ok(of(name).includes('target_no_match'), name);
  }
  assert.ok(of('profile.ai').includes('unavailable'));
  for (const name of ['statements.review', 'statements.review.delete'])
    assert.ok(of(name).includes('not_found'), name);
  // Public ops: no key, so no key refusals.
  for (const name of ['manifest.spec', 'manifest.schema', 'scenarios.catalog'])
    assert.ok(!of(name).includes('unauthenticated'), name);
});
