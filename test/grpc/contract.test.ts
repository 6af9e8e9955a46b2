// The proto cannot drift from the op table: the boot check compares RPCs and message fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractProblems, type ServiceMethods } from '../../src/transport/grpc/contract.js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';
import { ops } from '../../src/ops/table.js';

const methods = loadIbanQaPackage().service.service as unknown as ServiceMethods;

/** The real service definition with one method's request or response fields changed. */
function drifted(
  method: string,
  side: 'requestType' | 'responseType',
  fields: (names: string[]) => string[],
): ServiceMethods {
  const original = methods[method];
  assert.ok(original, method);
  const names = fields(original[side].type.field.map((field) => field.name));
  return {
    ...methods,
    [method]: { ...original, [side]: { type: { field: names.map((name) => ({ name })) } } },
  };
}

test('the shipped proto agrees with the op table', () => {
  assert.deepEqual(contractProblems(methods, ops), []);
});

test('a request field the op does not read, or one it reads that the proto lacks, is refused', () => {
  assert.match(
    contractProblems(
      drifted('Generate', 'requestType', (names) => [...names, 'colour']),
      ops,
    ).join('\n'),
    /request field 'colour' is not in iban\.generate's input/,
  );
  assert.match(
    contractProblems(
      drifted('Generate', 'requestType', (names) => names.filter((name) => name !== 'seed')),
      ops,
    ).join('\n'),
    /request lacks 'seed'/,
  );
});

test('a response without a field of the op output is refused, and so is an RPC without an op', () => {
  assert.match(
    contractProblems(
      drifted('BankLookup', 'responseType', (names) => names.filter((name) => name !== 'results')),
      ops,
    ).join('\n'),
    /response lacks 'results'/,
  );
  const withExtra = { ...methods, Teleport: methods['Generate'] } as ServiceMethods;
  assert.deepEqual(contractProblems(withExtra, ops), ['RPC Teleport has no op']);
});
