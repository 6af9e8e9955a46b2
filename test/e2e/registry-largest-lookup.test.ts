// Regression: the spec allows a lookup (and an export) of 1,000 identifiers with values of up to 128
// characters; such a body is about 170 KB and was refused as 413 by a 64 KiB JSON cap. Method: the real service,
// the largest allowed request, one credit per identifier, every identifier an explicit no_match.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

test('a lookup of 1,000 identifiers with 128-character values is answered, not refused', async () => {
  const identifiers = Array.from({ length: 1_000 }, (_, index) => ({
    value: `Z${String(index).padStart(4, '0')}`.padEnd(128, 'Q'),
    type: 'company_number',
  }));
  const reply = await call(service.base, '/bank-intelligence/lookup', {
    key: service.keys.enterprise,
    body: { identifiers },
  });
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  assert.equal(reply.body.results.length, 1_000);
  assert.ok(
    reply.body.results.every(
      (result: { match_status: string }) => result.match_status === 'no_match',
    ),
  );
  assert.equal(reply.body.charged_api_credits, 1_000);
});
