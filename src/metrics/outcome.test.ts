import assert from 'node:assert/strict';
import { test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { errorCodes } from '../errors.js';
import { grpcStatusOf } from '../transport/grpc/status.js';
import { httpStatusOf } from '../transport/http/status.js';
import { restOutcomeClass } from '../transport/http/metrics.js';
import { grpcOutcomeClass, grpcOutcomeClasses, outcomeClassOfStatus } from './outcome.js';

test('every error code lands in the same outcome class over gRPC as over REST', () => {
  for (const code of errorCodes) {
    const rest = outcomeClassOfStatus(Number.parseInt(httpStatusOf[code], 10));
    assert.equal(restOutcomeClass(code), rest, code);
    assert.equal(grpcOutcomeClass(status[grpcStatusOf[code]]), rest, code);
  }
});

test('the gRPC table names every status grpc-js defines, by its name', () => {
  const names = Object.keys(status).filter((name) => Number.isNaN(Number(name)));
  assert.deepEqual(Object.keys(grpcOutcomeClasses).sort(), names.sort());
});

test('REST status lines class by their hundreds; what cannot be read is a server error', () => {
  assert.equal(restOutcomeClass('200 OK'), 'ok');
  assert.equal(restOutcomeClass('202 Accepted'), 'ok');
  assert.equal(restOutcomeClass('404 Not Found'), 'client_error');
  assert.equal(restOutcomeClass('503 Service Unavailable'), 'server_error');
  assert.equal(restOutcomeClass('no status'), 'server_error');
  assert.equal(grpcOutcomeClass('NOT_A_STATUS'), 'server_error');
});
