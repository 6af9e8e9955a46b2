import { Type } from '@sinclair/typebox';
import { paymentPaths, pathFacts } from '../../domain/scenarios/paths.js';
import { reasonCodes } from '../../domain/scenarios/reason-codes.js';
import { defaultScenarioOf, scenarioDefinitions } from '../../domain/scenarios/scenarios.js';
import { vopOutcomes, vopPresentation } from '../../domain/scenarios/vop.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';

export const scenarioCatalog = defineOp({
  name: 'scenarios.catalog',
  needs: [] as const,
  runsOn: 'main',
  tag: 'Payment scenarios',
  summary:
    'Payment scenario catalog: scenarios, parameters, allowed values, defaults, rules and sources',
  description:
    'Every scenario with its payment path and the reason codes it can end with; every request parameter with its allowed values and default; the VoP outcomes and what the payer is shown; the rulebook facts with their sources and what is not available. No key, no credits.',
  http: { method: 'GET', path: '/payment-scenarios/catalog', inputFrom: 'query' },
  grpc: {
    method: 'PaymentScenarioCatalog',
    wrap: 'object',
    toMessage: (output) => ({ catalog_json: JSON.stringify(output) }),
  },
  access: 'none',
  input: strictObject({}),
  output: Type.Object({ success: Type.Literal(true) }, { additionalProperties: true }),
  cost: () => ({}),
  rows: () => 1,
  run: () => ({
    success: true as const,
    illustrative: true,
    scenarios: scenarioDefinitions.map((definition) => ({
      name: definition.name,
      payment_path: definition.path,
      title: definition.title,
      description: definition.description,
      reason_codes: [...definition.reasons],
    })),
    parameters: {
      scenario: {
        allowed: scenarioDefinitions.map((definition) => definition.name),
        default: `the settled scenario of payment_path (${Object.entries(defaultScenarioOf)
          .map(([path, name]) => `${path}: ${name}`)
          .join(', ')})`,
      },
      payment_path: { allowed: [...paymentPaths], default: "the scenario's path, else SCT" },
      country: {
        allowed:
          'an IBAN country: English name or ISO alpha-2 code (SEPA membership is not checked)',
        default: "the BIC's country when bank_target is a BIC, else DE",
      },
      bank_target: {
        allowed:
          'a BIC (8 or 11 characters) or part of a bank name, matched in the registry for the country',
        default: 'none: no bank is targeted',
      },
      amount: {
        allowed:
          'decimal text in EUR, 0.01 or more, at most 2 decimals; SCT at most 999,999,999.99',
        default: 'drawn from the seed between 1.00 and 5000.00',
      },
      currency: { allowed: ['EUR'], default: 'EUR' },
      vop_outcome: {
        allowed: [...vopOutcomes],
        default: 'MATCH (credit transfers); not allowed on direct debits',
      },
      seed: { allowed: '1 to 80 characters', default: 'none: a fresh scenario every call' },
    },
    vop_outcomes: vopOutcomes.map((outcome) => ({ outcome, ...vopPresentation[outcome] })),
    payment_paths: paymentPaths.map((path) => ({
      ...pathFacts[path],
      facts: pathFacts[path].facts.map((fact) => ({ ...fact })),
      not_available: [...pathFacts[path].not_available],
    })),
    reason_codes: reasonCodes.map((reason) => ({ ...reason })),
    statuses: {
      ACCP: 'accepted customer profile',
      ACSC: 'accepted, settlement completed',
      PDNG: 'pending',
      RJCT: 'rejected',
    },
  }),
});
