import { rngBelow, rowRng, type RequestKey, type Rng } from '../rng.js';
import { fullNameOf, type BaseName } from './base-names.js';
import {
  drawHolder,
  drawUntil,
  holderCountries,
  sharedWordHolder,
  unrelatedHolder,
} from './holders.js';
import type { VopLabel } from './labels.js';
import {
  appliesTo,
  appliesToName,
  perturb,
  perturbations,
  ruleOf,
  type Perturbation,
} from './perturbations.js';

export interface MatrixRow {
  readonly row_id: string;
  readonly country: string;
  readonly holder_kind: 'person' | 'entity';
  /** The name as the responding PSP holds it for the account. */
  readonly account_name: string;
  /** The name the payer typed. */
  readonly payer_name: string;
  readonly perturbation: Perturbation;
  readonly edit_distance: number | null;
  readonly expected_label: VopLabel;
  readonly rationale: string;
  /** CLOSE_MATCH only: the name returned to the payer (the name as held); null otherwise. */
  readonly returned_name: string | null;
  readonly synthetic: true;
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[rngBelow(rng, items.length)] as T;

/** The row's account holder: a country, a kind the perturbation applies to, then names drawn for them. */
function drawBase(rng: Rng, perturbation: Perturbation): BaseName {
  return drawUntil(
    rng,
    () => {
      const country = pick(rng, holderCountries);
      const kind =
        appliesTo(perturbation, 'person') && rngBelow(rng, 2) === 0 ? 'person' : 'entity';
      return drawHolder(rng, country, kind);
    },
    (base) => appliesToName(perturbation, base),
    `holder for ${perturbation}`,
  );
}

function otherHolder(base: BaseName, perturbation: Perturbation, rng: Rng): BaseName {
  if (perturbation === 'different_entity') return unrelatedHolder(base, rng);
  if (perturbation === 'different_entity_shared_word') return sharedWordHolder(base, rng);
  return base;
}

/**
 * Row i: perturbation i mod 14 (every block of 14 rows covers every perturbation); country, kind, names and the
 * perturbation's choices all come from the row's own random stream.
 */
export function matrixRow(key: RequestKey, index: number): MatrixRow {
  const perturbation = perturbations[index % perturbations.length] as Perturbation;
  const rng = rowRng(key, index);
  const base = drawBase(rng, perturbation);
  const other = otherHolder(base, perturbation, rng);
  const { payerName, editDistance } = perturb(base, perturbation, rng, other);
  const rule = ruleOf.get(perturbation);
  if (rule === undefined) throw new Error(`no labelling rule for ${perturbation}`);
  const accountName = fullNameOf(base);
  return {
    row_id: `r${index}`,
    country: base.country,
    holder_kind: base.kind,
    account_name: accountName,
    payer_name: payerName,
    perturbation,
    edit_distance: editDistance,
    expected_label: rule.label,
    rationale: rule.rationale,
    returned_name: rule.label === 'CLOSE_MATCH' ? accountName : null,
    synthetic: true,
  };
}

/** The first `limit` rows whose label is wanted, in row order: a filtered matrix is a subset of the unfiltered one. */
export function compileMatrix(
  key: RequestKey,
  limit: number,
  outcomes: ReadonlySet<VopLabel> | undefined,
): MatrixRow[] {
  const rows: MatrixRow[] = [];
  // Every label occurs in every block of perturbations.length rows, so limit x that many rows always suffice.
  for (let index = 0; rows.length < limit && index < limit * perturbations.length; index++) {
    if (
      outcomes !== undefined &&
      !outcomes.has(
        (
          ruleOf.get(perturbations[index % perturbations.length] as Perturbation) as {
            label: VopLabel;
          }
        ).label,
      )
    )
      continue;
    rows.push(matrixRow(key, index));
  }
  return rows;
}

/** The row index a row_id names, or undefined for text that is not a row id. */
export function rowIndexOf(rowId: string): number | undefined {
  const match = /^r(0|[1-9]\d{0,6})$/.exec(rowId);
  return match === null ? undefined : Number(match[1]);
}
