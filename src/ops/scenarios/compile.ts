import { Type } from '@sinclair/typebox';
import { buildScenario } from '../../domain/scenarios/build.js';
import { defineOp } from '../framework/op.js';
import { requirePlan } from '../registry/common.js';
import { bicCountryOf, resolveTarget } from './bank-target.js';
import { checkScenario, countryOf, scenarioInput } from './request.js';

export const scenarioCompile = defineOp({
  name: 'scenarios.compile',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'Payment scenarios',
  summary: 'Compile an illustrative payment scenario',
  description:
    'An illustrative JSON summary of one payment: scheme (SCT, SCT Inst, SDD Core, SDD B2B), the VoP outcome and what the payer ' +
    'is shown, the message flow as named ISO 20022 messages with statuses and reason codes, the rules that apply with their ' +
    'sources, and what is not available. bank_target is matched against the registry (no match is reported, never substituted). ' +
    'Placeholder IBANs are deliberately not checksum-valid. Deterministic with a seed. Not ISO 20022 XML, not importable. ' +
    'Business plan or higher (402 otherwise); 400 on an invalid scenario. Cost: one API credit.',
  http: { method: 'POST', path: '/payment-scenarios/compile', inputFrom: 'body' },
  grpc: {
    method: 'PaymentScenarioCompile',
    wrap: 'object',
    // parties is keyed by role (payer/payee or creditor/debtor): a list on the wire.
    toMessage: (output) => {
      const { scenario } = output as { scenario: { parties: Record<string, object> } };
      return {
        ...(output as object),
        scenario: {
          ...scenario,
          parties: Object.entries(scenario.parties).map(([role, party]) => ({ role, ...party })),
        },
      };
    },
  },
  access: 'key',
  input: scenarioInput,
  output: Type.Object({
    success: Type.Literal(true),
    scenario: Type.Object({}, { additionalProperties: true }),
  }),
  seedOf: (input) => input.seed,
  gate: (input, caller) => {
    requirePlan(caller, 'business', 'payment_required', 'Payment scenarios');
    checkScenario(input);
  },
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input, context) => {
    const checked = checkScenario(input);
    const format = countryOf(input, bicCountryOf(input.bank_target));
    const target = resolveTarget(input.bank_target, format, context.bank);
    const scenario = buildScenario(
      context.requestKey,
      {
        definition: checked.definition,
        format,
        target,
        amountCents: checked.amountCents,
        vopOutcome: checked.vopOutcome,
        seed: input.seed ?? null,
      },
      context.bank,
    );
    return { success: true as const, scenario };
  },
});
