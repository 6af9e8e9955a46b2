import { Type } from '@sinclair/typebox';
import { holderCountries, holderSpace } from '../../domain/names/holders.js';
import { vopLabels } from '../../domain/names/labels.js';
import { legalFormTable } from '../../domain/names/legal-forms.js';
import { matcherThresholds } from '../../domain/names/matcher.js';
import { labellingRules, perturbations } from '../../domain/names/perturbations.js';
import { cite, documents } from '../../domain/sources/citations.js';
import { artifactLimits } from '../../limits.js';
import { citationSchema } from '../framework/citation.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { requireBusiness, vopDefaultSeed } from './common.js';

const principles = [
  'Labels are QA expectations for a harness, not a claim about how any PSP matches: the EPC publishes matching recommendations, not rules, and each responding PSP chooses its own algorithm and thresholds.',
  "The four labels are the EPC VoP scheme outcomes: MATCH (MTCH), CLOSE_MATCH (CMTC), NO_MATCH (NMTC), NOAP (verification not possible). Only a close match returns the account holder's name to the payer (returned_name).",
  'Harmless differences (case, spaces, diacritics, punctuation) are MATCH; the same holder written differently (legal form, initials, word order, typos at edit distance 1-2) is CLOSE_MATCH; another holder is NO_MATCH; no name is NOAP.',
  'Names are synthetic, in the Latin alphabets of SEPA countries with their diacritics; VoP carries names between PSPs in Latin characters, so other scripts are out of scope.',
  "Holders are drawn per row: a country, a kind, then given and family names from the country's faker name lists, a trade word of its language and a legal form of the country from the GLEIF ISO 20275 list. Two NO_MATCH perturbations: another holder sharing no word (easy) and another holder sharing a family name or the owners' name (hard: Müller Bau GmbH / Müller Holzbau GmbH).",
  `Row i of a seed is always the same row: perturbation i mod ${perturbations.length}, holder drawn from the row's own random stream. limit takes a prefix; outcomes keeps the rows with those labels, with their row ids unchanged.`,
];

const facts = [
  {
    fact: 'The four VoP outcomes: match (MTCH), close match (CMTC, the account holder name is returned to the payer), no match (NMTC), verification not possible (NOAP); names travel between PSPs in Latin characters.',
    source: cite(documents.vopRulebook),
  },
  {
    fact: 'The EPC publishes recommendations for matching, not rules: each responding PSP chooses its algorithm and thresholds.',
    source: cite(documents.vopMatching),
  },
  {
    fact: 'PSPs must verify the payee before a credit transfer is authorised and tell the payer the result; the payer may still proceed.',
    source: cite(
      documents.instantPaymentsRegulation,
      'Article 5c inserted into Regulation (EU) No 260/2012',
    ),
  },
  {
    fact: `The reference matcher's close-match threshold ${matcherThresholds.closeMatchMin} (Jaro-Winkler) is the one published for individuals by a VoP responder product.`,
    source: cite(documents.ipfVopNameMatching),
  },
  {
    fact: 'Legal forms of the holders, with their ELF codes, local names and abbreviations.',
    source: cite(documents.elfCodeList),
  },
  {
    fact: 'Given and family names of the holders, per country locale.',
    source: cite(documents.fakerNames),
  },
];

export const vopCatalog = defineOp({
  name: 'vop.catalog',
  needs: [] as const,
  runsOn: 'main',
  tag: 'Name matching',
  summary: 'Verification of Payee benchmark: labels, perturbations and labelling rules',
  description:
    "The perturbations with their expected label and rationale, the labelling principles, the holders' countries, name space and legal forms (ISO 20275 ELF codes), the reference matcher's normalisation and thresholds, and the facts it rests on with their public sources. Business plan or higher (402 otherwise); no credits.",
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
      count: Type.Integer({ description: 'Distinct holder names the generator can draw' }),
      persons: Type.Integer(),
      entities: Type.Integer(),
      countries: Type.Array(Type.String()),
      legal_forms: Type.Array(
        Type.Object({
          country: Type.String(),
          elf: Type.String({ description: 'ISO 20275 ELF code' }),
          short: Type.String(),
          full: Type.String(),
          abbreviation_source: Type.Union([Type.String(), Type.Null()], {
            description: "null: the abbreviation is the ELF list's own",
          }),
        }),
      ),
    }),
    facts: Type.Array(Type.Object({ fact: Type.String(), source: citationSchema })),
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
      count: holderSpace.persons + holderSpace.entities,
      persons: holderSpace.persons,
      entities: holderSpace.entities,
      countries: [...holderCountries],
      legal_forms: legalFormTable
        .filter((form) => holderCountries.includes(form.country))
        .map((form) => ({
          country: form.country,
          elf: form.elf,
          short: form.short,
          full: form.full,
          abbreviation_source: form.abbreviationSource,
        })),
    },
    facts: facts.map((entry) => ({ ...entry, source: { ...entry.source } })),
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
