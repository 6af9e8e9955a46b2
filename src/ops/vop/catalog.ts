import { Type } from '@sinclair/typebox';
import { baseNames, legalForms } from '../../domain/names/base-names.js';
import { vopLabels } from '../../domain/names/labels.js';
import { matcherThresholds } from '../../domain/names/matcher.js';
import { labellingRules } from '../../domain/names/perturbations.js';
import { artifactLimits } from '../../limits.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { requireBusiness, vopDefaultSeed } from './common.js';

const principles = [
  'Labels are QA expectations for a harness, not a claim about how any PSP matches: the EPC publishes matching recommendations, not rules, and each responding PSP chooses its own algorithm and thresholds.',
  "The four labels are the EPC VoP scheme outcomes: MATCH (MTCH), CLOSE_MATCH (CMTC), NO_MATCH (NMTC), NOAP (verification not possible). Only a close match returns the account holder's name to the payer (returned_name).",
  'Harmless differences (case, spaces, diacritics, punctuation) are MATCH; the same holder written differently (legal form, initials, word order, typos at edit distance 1-2) is CLOSE_MATCH; another holder is NO_MATCH; no name is NOAP.',
  'Names are synthetic, in the Latin alphabets of SEPA countries with their diacritics; the EPC VoP API carries Latin characters only, so other scripts are out of scope.',
  "Row i of a seed is always the same row: perturbation i mod 13, holder drawn from the row's own random stream. limit takes a prefix; outcomes keeps the rows with those labels, with their row ids unchanged.",
];

export const vopCatalog = defineOp({
  name: 'vop.catalog',
  needs: [] as const,
  runsOn: 'main',
  tag: 'Name matching',
  summary: 'Verification of Payee benchmark: labels, perturbations and labelling rules',
  description:
    "The perturbations with their expected label and rationale, the labelling principles, the holders' countries, the reference matcher's normalisation and thresholds. Business plan or higher (402 otherwise); no credits.",
  http: { method: 'GET', path: '/vop-benchmark/catalog', inputFrom: 'query' },
  grpc: { method: 'VopBenchmarkCatalog', wrap: 'object' },
  access: 'key',
  input: strictObject({}),
  output: Type.Object({
    success: Type.Literal(true),
    labels: Type.Array(Type.String()),
    principles: Type.Array(Type.String()),
    perturbations: Type.Array(
      Type.Object({ perturbation: Type.String(), label: Type.String(), rationale: Type.String() }),
    ),
    holders: Type.Object({
      count: Type.Integer(),
      persons: Type.Integer(),
      entities: Type.Integer(),
      countries: Type.Array(Type.String()),
      legal_forms: Type.Array(Type.Object({ short: Type.String(), full: Type.String() })),
    }),
    defaults: Type.Object({
      seed: Type.String(),
      limit: Type.Integer(),
      limit_max: Type.Integer(),
    }),
    reference_matcher: Type.Object({
      normalisation: Type.String(),
      rules: Type.Array(Type.String()),
      close_match_min: Type.Number(),
      similarity: Type.String(),
    }),
  }),
  gate: (_input, caller) => requireBusiness(caller),
  cost: () => ({}),
  rows: () => 1,
  run: () => ({
    success: true as const,
    labels: [...vopLabels],
    principles,
    perturbations: labellingRules.map((rule) => ({ ...rule })),
    holders: {
      count: baseNames.length,
      persons: baseNames.filter((base) => base.kind === 'person').length,
      entities: baseNames.filter((base) => base.kind === 'entity').length,
      countries: [...new Set(baseNames.map((base) => base.country))].sort(),
      legal_forms: Object.values(legalForms).map((form) => ({ ...form })),
    },
    defaults: {
      seed: vopDefaultSeed,
      limit: artifactLimits.vopRowsDefault,
      limit_max: artifactLimits.vopRowsMax,
    },
    reference_matcher: {
      normalisation:
        'NFKD with combining marks removed; ß ø æ ł þ ð đ œ ı spelled out; upper case; & and + as AND; dots and apostrophes dropped; other punctuation as space; spaces collapsed; German umlauts also spelled ae/oe/ue (best of both keys).',
      rules: [
        'empty payer name: NOAP',
        'normalised names equal: MATCH',
        'equal once a trailing legal form is set aside: CLOSE_MATCH',
        'same words in another order, or given names as initials: CLOSE_MATCH',
        `Jaro-Winkler of the names without legal forms >= ${matcherThresholds.closeMatchMin}: CLOSE_MATCH`,
        'otherwise: NO_MATCH',
      ],
      close_match_min: matcherThresholds.closeMatchMin,
      similarity: 'Jaro-Winkler (prefix scale 0.1, prefix up to 4) from @skyra/jaro-winkler',
    },
  }),
});
