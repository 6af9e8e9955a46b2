// Payment scenarios over REST and gRPC: keyless catalog, Business gate, metering, registry targeting, bad input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, creditsUsed as used, type TestService } from '../helpers/service.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from '../helpers/grpc-client.js';

describe('payment scenarios over REST and gRPC', () => {
  let service: TestService;
  let client: IbanQaClient;
  withServiceAndGrpcClient((started) => ({ service, client } = started));

  it('serves the catalog without a key, over both fronts', async () => {
    const rest = await call(service.base, '/payment-scenarios/catalog');
    assert.equal(rest.status, 200);
    assert.ok(rest.body.scenarios.length >= 10);
    assert.deepEqual(rest.body.parameters.vop_outcome.allowed, [
      'MATCH',
      'CLOSE_MATCH',
      'NO_MATCH',
      'NOAP',
      'REJECTED',
    ]);
    const grpc = await unary(client, 'PaymentScenarioCatalog', {}, keyMetadata(undefined));
    assert.equal(grpc.error, null);
    assert.deepEqual(JSON.parse(grpc.response.catalog_json), rest.body);
  });

  it('needs Business (402 for Pro, nothing debited), costs one credit, and is deterministic by seed', async () => {
    const pro = service.keys.pro;
    const before = used(service, pro);
    const refused = await call(service.base, '/payment-scenarios/compile', { key: pro, body: {} });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.required_plan, 'business');
    assert.equal(used(service, pro), before);
    const key = service.keys.business;
    const start = used(service, key);
    const body = {
      scenario: 'sct_inst_rejected',
      amount: '250.00',
      vop_outcome: 'CLOSE_MATCH',
      seed: 's1',
    };
    const a = await call(service.base, '/payment-scenarios/compile', { key, body });
    const b = await call(service.base, '/payment-scenarios/compile', { key, body });
    assert.equal(a.status, 200, a.text);
    assert.equal(used(service, key) - start, 2);
    assert.equal(a.text, b.text);
    const scenario = a.body.scenario;
    assert.equal(scenario.illustrative, true);
    assert.equal(scenario.amount, '250.00');
    assert.equal(scenario.vop.returned_name, scenario.parties.payee.name);
    assert.equal(scenario.flow.at(-1).status, 'RJCT');
    // The placeholder IBAN fails the service's own validator on the checksum.
    const verdicts = await call(service.base, '/validate', {
      key,
      body: { ibans: [scenario.parties.payee.iban, scenario.parties.payer.iban] },
    });
    assert.deepEqual(
      verdicts.body.map((row: { valid: boolean; error: string }) => [row.valid, row.error]),
      [
        [false, 'invalid_checksum'],
        [false, 'invalid_checksum'],
      ],
    );
    const grpc = await unary(client, 'PaymentScenarioCompile', body, keyMetadata(key));
    assert.equal(grpc.error, null);
    assert.equal(grpc.response.scenario.flow.length, scenario.flow.length);
    assert.deepEqual(
      grpc.response.scenario.parties.map((party: { role: string }) => party.role).sort(),
      ['payee', 'payer'],
    );
    assert.equal(
      grpc.response.scenario.references.end_to_end_id,
      scenario.references.end_to_end_id,
    );
    // Sources are public documents on both fronts (a Citation message over gRPC).
    assert.deepEqual(grpc.response.scenario.rules[0].source, scenario.rules[0].source);
    assert.match(scenario.rules[0].source.url, /^https:\/\//);
    assert.deepEqual(
      grpc.response.scenario.reason_codes.map(
        (code: { source: { url: string } }) => code.source.url,
      ),
      scenario.reason_codes.map((code: { source: { url: string } }) => code.source.url),
    );
    const grpcRefused = await unary(client, 'PaymentScenarioCompile', body, keyMetadata(pro));
    assert.equal(grpcRefused.error?.code, 9);
  });

  it('matches bank_target against the registry and says so when nothing matches', async () => {
    const key = service.keys.business;
    const known = await call(service.base, '/validate', {
      key,
      body: { ibans: ['DE89370400440532013000'] },
    });
    const bic = known.body[0].swift_code as string;
    assert.match(bic, /^[A-Z0-9]{8,11}$/);
    const matched = await call(service.base, '/payment-scenarios/compile', {
      key,
      body: { bank_target: bic, seed: 't' },
    });
    assert.equal(matched.status, 200, matched.text);
    assert.equal(matched.body.scenario.bank_target.match_status, 'matched');
    assert.equal(matched.body.scenario.bank_target.bank.bic, bic.length === 8 ? `${bic}XXX` : bic);
    assert.equal(
      matched.body.scenario.parties.payee.iban.slice(4, 12),
      matched.body.scenario.bank_target.bank.bank_code,
    );
    const none = await call(service.base, '/payment-scenarios/compile', {
      key,
      body: { bank_target: 'No Such Bank Anywhere', country: 'DE' },
    });
    assert.equal(none.status, 200);
    assert.deepEqual(
      [none.body.scenario.bank_target.match_status, none.body.scenario.bank_target.bank],
      ['no_match', null],
    );
  });

  it('answers invalid scenarios with 400 and debits nothing', async () => {
    const key = service.keys.business;
    const before = used(service, key);
    const bad: unknown[] = [
      { scenario: 'sct_teleport' },
      { payment_path: 'SWIFT' },
      { scenario: 'sct_accepted', payment_path: 'SDD_CORE' },
      { scenario: 'sdd_core_collected', vop_outcome: 'MATCH' },
      { vop_outcome: 'MAYBE' },
      { amount: '12,50' },
      { amount: '12.345' },
      { amount: '0' },
      { amount: '1000000000.00', payment_path: 'SCT' },
      { currency: 'USD' },
      { currency: 'ZZZ' },
      { country: 'Atlantis' },
      { bank_target: 'DEUTDEFFXXX', country: 'FR' },
      { seed: '' },
    ];
    for (const body of bad) {
      const reply = await call(service.base, '/payment-scenarios/compile', { key, body });
      assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.text}`);
      assert.equal(typeof reply.body.request_id, 'string');
    }
    assert.equal(used(service, key), before);
  });
});
