import type { CountryFormat } from '../iban/index.js';
import type { NationalContext } from '../iban/national/types.js';
import { baseNames, fullNameOf, type BaseName } from '../names/base-names.js';
import { perturb } from '../names/perturbations.js';
import { rngBelow, rowRng, type RequestKey, type Rng } from '../rng.js';
import { formatCents } from './amount.js';
import { pathFacts, type PathFacts } from './paths.js';
import { placeholderIban } from './placeholder-iban.js';
import { reasonByCode } from './reason-codes.js';
import type { FlowStep, ScenarioDefinition } from './scenarios.js';
import { vopPresentation, type VopOutcome } from './vop.js';

export interface MatchedBank {
  readonly bic: string | null;
  readonly name: string | null;
  readonly city: string | null;
  readonly country_code: string;
  readonly bank_code: string;
  readonly source_id: string;
  readonly payment_schemes: readonly string[];
}

export type TargetResolution =
  | { readonly status: 'not_requested' }
  | { readonly status: 'no_match'; readonly query: string }
  | {
      readonly status: 'matched';
      readonly query: string;
      readonly bank: MatchedBank;
      readonly candidates: number;
    };

export interface ScenarioRequest {
  readonly definition: ScenarioDefinition;
  readonly format: CountryFormat;
  readonly target: TargetResolution;
  readonly amountCents: bigint | undefined;
  readonly vopOutcome: VopOutcome | undefined;
  readonly seed: string | null;
}

const hex = (rng: Rng, length: number): string =>
  Array.from({ length }, () => rngBelow(rng, 16).toString(16)).join('');
const pick = <T>(rng: Rng, items: readonly T[]): T => items[rngBelow(rng, items.length)] as T;

/** A default amount between 1.00 and 5,000.00 EUR, drawn from the seed. */
function defaultCents(rng: Rng): bigint {
  return BigInt(100 + rngBelow(rng, 500_000 - 100 + 1));
}

function vopSection(outcome: VopOutcome, holder: BaseName, other: BaseName, rng: Rng) {
  const holderName = fullNameOf(holder);
  const entered =
    outcome === 'CLOSE_MATCH'
      ? perturb(holder, 'typo_1', rng, other).payerName
      : outcome === 'NO_MATCH'
        ? fullNameOf(other)
        : holderName;
  const presentation = vopPresentation[outcome];
  const returned = outcome === 'CLOSE_MATCH' ? holderName : null;
  return {
    applies: true,
    outcome,
    scheme_code: presentation.scheme_code,
    name_entered_by_payer: entered,
    returned_name: returned,
    payer_shown: presentation.payer_shown.replace('{returned_name}', returned ?? ''),
    payer_decision: presentation.payer_decision,
    note: presentation.note,
  };
}

function vopSteps(outcome: VopOutcome): Omit<FlowStep, 'step'>[] {
  const result = outcome === 'REJECTED' ? 'refused (error)' : vopPresentation[outcome].scheme_code;
  return [
    {
      message: 'VoP request (EPC VOP API)',
      iso20022: false,
      from: 'payer_psp',
      to: 'payee_psp',
      status: null,
      reason_code: null,
      day_offset: 0,
      note: 'Name and IBAN of the payee, before the payer authorises the transfer',
    },
    {
      message: 'VoP response (EPC VOP API)',
      iso20022: false,
      from: 'payee_psp',
      to: 'payer_psp',
      status: null,
      reason_code: null,
      day_offset: 0,
      note: `Result: ${result}`,
    },
  ];
}

/** The illustrative scenario: a pure function of the request key and the resolved request. */
export function buildScenario(key: RequestKey, request: ScenarioRequest, context: NationalContext) {
  // Every draw below comes from one stream, so the order of the draws is part of the output.
  const rng = rowRng(key, 0);
  const { definition, format, target } = request;
  const facts = pathFacts[definition.path];
  const reason = definition.reasons.length === 0 ? null : pick(rng, definition.reasons);
  const coin = rngBelow(rng, 2) === 0;
  const { payee, payer, other } = drawPeople(rng, format.code);
  const matchedCode = target.status === 'matched' ? target.bank.bank_code : undefined;
  const creditTransfer = facts.kind === 'credit_transfer';
  const vop = creditTransfer ? vopSection(request.vopOutcome ?? 'MATCH', payee, other, rng) : null;
  const flow = numbered([
    ...(creditTransfer ? vopSteps(request.vopOutcome ?? 'MATCH') : []),
    ...definition.flow(reason, coin),
  ]);
  const payeeIban = placeholderIban(format, rng, matchedCode, context);
  const payerIban = placeholderIban(format, rng, undefined, context);
  const [payeeRole, payerRole] = creditTransfer ? ['payee', 'payer'] : ['creditor', 'debtor'];
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    payment_path: definition.path,
    scheme: facts.title,
    illustrative: true as const,
    disclaimer:
      'Illustrative JSON summary with placeholder accounts and assumed statuses; not ISO 20022 XML, not schema-validated, not importable into a bank. The placeholder IBANs are deliberately not checksum-valid.',
    seed: request.seed,
    country_code: format.code,
    currency: 'EUR',
    amount: formatCents(request.amountCents ?? defaultCents(rng)),
    parties: {
      [payeeRole as string]: syntheticParty(payee, payeeIban),
      [payerRole as string]: syntheticParty(payer, payerIban),
    },
    references: referencesOf(rng, creditTransfer),
    bank_target: bankTargetOf(target, facts.registry_scheme),
    vop: vop ?? vopNotApplicable(),
    flow,
    outcome: definition.final(reason, coin),
    reason_codes: reasonCodesOf(flow),
    rules: facts.facts.map((fact) => ({ ...fact })),
    not_available: [...facts.not_available],
  };
}

/** The payee (of the country when it has two base names), the payer, and another name of the payee's kind. */
function drawPeople(rng: Rng, countryCode: string) {
  const holders = baseNames.filter((base) => base.country === countryCode);
  const pool = holders.length >= 2 ? holders : baseNames;
  const payee = pick(rng, pool);
  const payer = pick(
    rng,
    baseNames.filter((base) => base !== payee),
  );
  const other = pick(
    rng,
    pool
      .filter((base) => base !== payee && base.kind === payee.kind)
      .concat(baseNames.filter((base) => base !== payee && base.kind === payee.kind)),
  );
  return { payee, payer, other };
}

function numbered(steps: readonly Omit<FlowStep, 'step'>[]): FlowStep[] {
  return steps.map((step, index) => ({ step: index + 1, ...step }));
}

function syntheticParty(person: BaseName, iban: string) {
  return { name: fullNameOf(person), synthetic: true, iban, iban_checksum_valid: false };
}

/** The end-to-end id, and for a direct debit its mandate reference and creditor identifier placeholder. */
function referencesOf(rng: Rng, creditTransfer: boolean) {
  return {
    end_to_end_id: `E2E-${hex(rng, 16).toUpperCase()}`,
    ...(creditTransfer
      ? {}
      : {
          mandate_reference: `UMR-${hex(rng, 12).toUpperCase()}`,
          creditor_identifier: 'placeholder (not a real creditor identifier)',
        }),
  };
}

function bankTargetOf(target: TargetResolution, scheme: PathFacts['registry_scheme']) {
  return target.status === 'matched'
    ? {
        query: target.query,
        match_status: 'matched' as const,
        candidates: target.candidates,
        bank: target.bank,
        scheme_listed:
          target.bank.payment_schemes.length === 0
            ? null
            : target.bank.payment_schemes.includes(scheme),
      }
    : target.status === 'no_match'
      ? {
          query: target.query,
          match_status: 'no_match' as const,
          candidates: 0,
          bank: null,
          scheme_listed: null,
        }
      : {
          query: null,
          match_status: 'not_requested' as const,
          candidates: 0,
          bank: null,
          scheme_listed: null,
        };
}

// A fresh object per scenario: callers own what buildScenario returns.
function vopNotApplicable() {
  return {
    applies: false,
    outcome: null,
    scheme_code: null,
    name_entered_by_payer: null,
    returned_name: null,
    payer_shown: null,
    payer_decision: null,
    note: 'Verification of Payee applies to credit transfers only.',
  };
}

/** The reason codes the flow uses, once each in order of first use, with their names and sources. */
function reasonCodesOf(flow: readonly FlowStep[]) {
  const codes = new Set(
    flow.map((step) => step.reason_code).filter((code): code is string => code !== null),
  );
  return [...codes].map((code) => {
    const reason = reasonByCode.get(code);
    if (reason === undefined)
      throw new Error(`reason code ${code} has no entry in reason-codes.ts`);
    return { ...reason };
  });
}
