// Goal: a refused input names the field and what it allows, in words a client can act on ("output must be one of
// json, csv"), never ajv's internals ("must be equal to constant"). Method: the real validators of the op table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { opsByName } from '../table.js';
import { compileInputValidator } from './input-validation.js';

function messageOf(opName: string, raw: unknown): string {
  const op = opsByName.get(opName);
  assert.ok(op, opName);
  try {
    compileInputValidator(op)(raw);
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'invalid_argument');
    return error.message;
  }
  return assert.fail(`${opName} accepted ${JSON.stringify(raw)}`);
}

describe('input validation messages', () => {
  it('a union of literals lists its values', () => {
    assert.equal(
      messageOf('iban.test_cases', { country: 'DE', output: 'xml' }),
      'output must be one of json, csv',
    );
    assert.equal(
      messageOf('iban.bulk_dataset', { country: 'DE', output: 1 }),
      'output must be one of json, csv',
    );
    assert.equal(
      messageOf('us_routing.profile', { mode: 'random', seed: 's' }),
      'mode must be one of synthetic, targeted',
    );
  });

  it('bounds are said as bounds', () => {
    assert.equal(
      messageOf('iban.generate', { country: 'DE', quantity: 101 }),
      'quantity must be at most 100',
    );
    assert.equal(
      messageOf('iban.generate', { country: 'DE', quantity: 0 }),
      'quantity must be at least 1',
    );
    assert.equal(messageOf('bank.search', { query: 'x' }), 'query must have at least 2 characters');
    assert.equal(messageOf('iban.validate', { ibans: [] }), 'ibans must have at least 1 items');
  });

  it('types, unknown and missing fields name the field', () => {
    assert.equal(
      messageOf('iban.generate', { country: 'DE', quantity: '3' }),
      'quantity must be integer',
    );
    assert.equal(
      messageOf('iban.generate', { country: 'DE', targeting: { city: 5 } }),
      'targeting.city must be string',
    );
    assert.equal(
      messageOf('iban.generate', { country: 'DE', colour: 'red' }),
      "request has an unknown field 'colour'",
    );
    assert.equal(messageOf('iban.generate', {}), "request is missing the required field 'country'");
  });

  it('a pattern is explained by its description', () => {
    const message = messageOf('us_routing.run', {
      routing_numbers: ['011000015'],
      max_credits: 1,
      request_id: 'abc',
    });
    assert.match(
      message,
      /^request_id must match .+ \(Unix milliseconds \(13 digits\), a hyphen, 32 lower-case hex/,
    );
  });

  it('no message leaks ajv wording', () => {
    for (const raw of [
      { country: 'DE', output: 'xml' },
      { country: 'DE', quantity: 1_000 },
      { country: 'DE', seed: '' },
    ]) {
      assert.doesNotMatch(messageOf('iban.test_cases', raw), /equal to constant|must NOT|<=|>=/);
    }
  });
});
