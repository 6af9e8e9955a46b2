import { rngBelow, rowRng, type RequestKey } from '../rng.js';
import { baseNames, fullNameOf, type BaseName } from './base-names.js';
import type { VopLabel } from './labels.js';
import { appliesTo, perturb, perturbations, ruleOf, type Perturbation } from './perturbations.js';

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

/** Another holder of the same kind, preferably of the same country, with a different name. */
function otherHolder(base: BaseName, pick: number): BaseName {
  const sameKind = baseNames.filter(
    (candidate) => candidate.kind === base.kind && fullNameOf(candidate) !== fullNameOf(base),
  );
  const sameCountry = sameKind.filter((candidate) => candidate.country === base.country);
  const pool = sameCountry.length > 0 ? sameCountry : sameKind;
  return pool[pick % pool.length] as BaseName;
}

/** Row i: perturbation i mod 13 (every block of 13 rows covers every perturbation), holder drawn by the row's rng. */
export function matrixRow(key: RequestKey, index: number): MatrixRow {
  const perturbation = perturbations[index % perturbations.length] as Perturbation;
  const rng = rowRng(key, index);
  const eligible = baseNames.filter((base) => appliesTo(perturbation, base));
  const base = eligible[rngBelow(rng, eligible.length)] as BaseName;
  const other = otherHolder(base, rngBelow(rng, 1_000));
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
  // Every label occurs in every block of 13 rows, so limit x 13 rows always suffice.
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
