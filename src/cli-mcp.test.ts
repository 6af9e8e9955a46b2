// Goal: `ibanqa mcp` takes its key from --api-key first, then IBANQA_API_KEY, and an empty value is no key (a
// keyless caller), never the empty string sent as a key. Method: the resolver over hand-made environments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpApiKey } from './cli-mcp.js';

test('--api-key wins over IBANQA_API_KEY, which is used without it', () => {
  assert.equal(mcpApiKey('iq_option', { IBANQA_API_KEY: 'iq_env' }), 'iq_option');
  assert.equal(mcpApiKey(undefined, { IBANQA_API_KEY: 'iq_env' }), 'iq_env');
});

test('no key, or an empty one, is a keyless caller', () => {
  assert.equal(mcpApiKey(undefined, {}), undefined);
  assert.equal(mcpApiKey(undefined, { IBANQA_API_KEY: '' }), undefined);
  assert.equal(mcpApiKey('', { IBANQA_API_KEY: 'iq_env' }), undefined);
});
