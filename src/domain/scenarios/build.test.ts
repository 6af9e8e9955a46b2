import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveCountry, validateIban } from '../iban/index.js';
import { noRegistryContext } from '../iban/national/types.js';
import { requestKeyOf } from '../rng.js';
import { checkAmount, currencyProblem } from './amount.js';
import { buildScenario } from './build.js';
import { scenarioByName, scenarioDefinitions } from './scenarios.js';
import { reasonByCode } from './reason-codes.js';

const format = resolveCountry('DE');
assert.ok(format);

function build(name: string, seed: string, vopOutcome?: 'CLOSE_MATCH' | 'NO_MATCH') {
  const definition = scenarioByName.get(name);
  assert.ok(definition);
  return buildScenario(
    requestKeyOf(seed, `scenarios.compile|${name}`),
    {
      definition,
      format: format!,
      target: { status: 'not_requested' },
      amountCents: undefined,
      vopOutcome,
      seed,
    },
    noRegistryContext,
  );
}

describe('payment scenarios', () => {
  it('are deterministic by seed: pinned golden values', () => {
    const a = build('sct_rejected', 'golden');
    assert.deepEqual(build('sct_rejected', 'golden'), a);
    assert.deepEqual(
      [a.amount, a.references.end_to_end_id, a.outcome.status, a.flow.at(-1)?.reason_code],
      GOLDEN,
    );
    assert.notDeepEqual(build('sct_rejected', 'other').references, a.references);
  });

  it('give placeholder IBANs that the validator rejects on the checksum, for every scenario', () => {
    for (const definition of scenarioDefinitions) {
      for (const seed of ['a', 'b', 'c']) {
        const scenario = build(definition.name, seed);
        for (const party of Object.values(scenario.parties)) {
          const verdict = validateIban(party.iban, noRegistryContext);
          assert.equal(verdict.valid, false, party.iban);
          assert.equal(verdict.error, 'invalid_checksum', party.iban);
        }
      }
    }
  });

  it('use only reason codes with a source, and name ISO 20022 messages in their flows', () => {
    for (const definition of scenarioDefinitions) {
      for (const code of definition.reasons) assert.ok(reasonByCode.has(code), code);
      const scenario = build(definition.name, 'flow');
      for (const step of scenario.flow.filter((s) => s.iso20022))
        assert.match(step.message, /^(pain|pacs|camt)\.\d{3}$/);
      for (const code of scenario.reason_codes) assert.match(code.source.url, /^https:\/\//);
    }
  });

  it("show the payer the holder's name on a close match only; no VoP on direct debits", () => {
    const close = build('sct_accepted', 'vop', 'CLOSE_MATCH');
    assert.equal(close.vop.scheme_code, 'CMTC');
    assert.equal(close.vop.returned_name, close.parties.payee?.name);
    assert.notEqual(close.vop.name_entered_by_payer, close.vop.returned_name);
    assert.ok(close.vop.payer_shown?.includes(close.vop.returned_name as string));
    const none = build('sct_accepted', 'vop', 'NO_MATCH');
    assert.equal(none.vop.returned_name, null);
    assert.equal(build('sdd_core_collected', 'vop').vop.applies, false);
  });

  it('checks amounts as decimal text in euro', () => {
    assert.deepEqual(checkAmount('125.5', 'SCT'), { ok: true, cents: 12550n, text: '125.50' });
    assert.equal(checkAmount('999999999.99', 'SCT').ok, true);
    assert.equal(checkAmount('1000000000.00', 'SCT').ok, false);
    assert.equal(checkAmount('1000000000.00', 'SCT_INST').ok, true);
    for (const bad of ['1.234', '1,50', '-1', '0', '0.00', '1e3', ' 1', '01.00', ''])
      assert.equal(checkAmount(bad, 'SCT').ok, false, bad);
    assert.equal(currencyProblem('EUR'), undefined);
    assert.match(currencyProblem('USD') ?? '', /euro only/);
    assert.match(currencyProblem('XYZ') ?? '', /unknown currency/);
  });
});

const GOLDEN: unknown[] = ['656.50', 'E2E-38B0744811A4B6F2', 'RJCT', 'FF01'];
