import { Type, type Static } from '@sinclair/typebox';
import type { CountryFormat } from '../../domain/iban/index.js';
import { checkAmount, currencyProblem } from '../../domain/scenarios/amount.js';
import { paymentPaths, pathFacts, type PaymentPath } from '../../domain/scenarios/paths.js';
import {
  defaultScenarioOf,
  scenarioByName,
  scenarioDefinitions,
  type ScenarioDefinition,
} from '../../domain/scenarios/scenarios.js';
import { vopOutcomes, type VopOutcome } from '../../domain/scenarios/vop.js';
import { AppError } from '../../errors.js';
import { artifactLimits } from '../../limits.js';
import { countryOrThrow } from '../framework/country.js';
import { countryField, strictObject } from '../framework/schemas.js';

export const scenarioInput = strictObject({
  scenario: Type.Optional(
    Type.Union(
      scenarioDefinitions.map((definition) => Type.Literal(definition.name)),
      { description: 'Default: the settled scenario of the payment path (sct_accepted)' },
    ),
  ),
  country: Type.Optional(countryField),
  bank_target: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: artifactLimits.scenarioTargetCharsMax,
      description:
        'A BIC (8 or 11) or part of a bank name, matched against the registry; no match is reported, never substituted',
    }),
  ),
  amount: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: artifactLimits.scenarioAmountCharsMax,
      description: 'Decimal text in EUR, at most 2 decimals, e.g. "125.50"',
    }),
  ),
  currency: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 8,
      description: 'EUR (SEPA schemes are euro only); default EUR',
    }),
  ),
  payment_path: Type.Optional(Type.Union(paymentPaths.map((path) => Type.Literal(path)))),
  vop_outcome: Type.Optional(
    Type.Union(
      vopOutcomes.map((outcome) => Type.Literal(outcome)),
      { description: 'Credit transfers only; default MATCH' },
    ),
  ),
  seed: Type.Optional(
    Type.String({ minLength: 1, maxLength: artifactLimits.scenarioSeedCharsMax }),
  ),
});
export type ScenarioInput = Static<typeof scenarioInput>;

const bad = (message: string) => new AppError('invalid_argument', message);

export interface CheckedScenario {
  readonly definition: ScenarioDefinition;
  readonly path: PaymentPath;
  readonly amountCents: bigint | undefined;
  readonly vopOutcome: VopOutcome | undefined;
}

/** Every rule that needs no registry: scenario and path agree, VoP only on credit transfers, euro, amount. */
export function checkScenario(input: ScenarioInput): CheckedScenario {
  const path =
    input.payment_path ??
    (input.scenario === undefined ? 'SCT' : (scenarioByName.get(input.scenario)?.path ?? 'SCT'));
  const definition = scenarioByName.get(input.scenario ?? defaultScenarioOf[path]);
  if (definition === undefined) throw bad(`unknown scenario ${JSON.stringify(input.scenario)}`);
  if (definition.path !== path)
    throw bad(`scenario ${definition.name} is a ${definition.path} scenario, not ${path}`);
  if (input.vop_outcome !== undefined && pathFacts[path].kind !== 'credit_transfer')
    throw bad(`vop_outcome applies to credit transfers; ${path} is a direct debit`);
  const currencyIssue = currencyProblem(input.currency ?? 'EUR');
  if (currencyIssue !== undefined) throw bad(currencyIssue);
  let amountCents: bigint | undefined;
  if (input.amount !== undefined) {
    const amount = checkAmount(input.amount, path);
    if (!amount.ok) throw bad(amount.reason);
    amountCents = amount.cents;
  }
  return { definition, path, amountCents, vopOutcome: input.vop_outcome };
}

/** The scenario's country: the BIC's country when bank_target is a BIC (it must agree with `country`), else `country`, else DE. */
export function countryOf(input: ScenarioInput, bicCountry: string | undefined): CountryFormat {
  const given = input.country === undefined ? undefined : countryOrThrow(input.country);
  if (bicCountry !== undefined) {
    const fromBic = countryOrThrow(bicCountry);
    if (given !== undefined && given.code !== fromBic.code)
      throw bad(`bank_target is a ${fromBic.code} BIC but country is ${given.code}`);
    return fromBic;
  }
  return given ?? countryOrThrow('DE');
}
