/**
 * What a caller may see of the registry's bank data: one rule for every answer that carries it
 * (records, change events, watch changes, migration fixtures).
 *
 * Free keys see what an IBAN's bank code already says (country, bank code, city, that a record changed
 * and which fields) and none of the names or identifiers the registry publishes about the bank: names,
 * BIC, LEI and the published columns are LOCKED, as on validation rows (clarifications §3). Successor
 * bank codes are codes, not names, and stay visible. Paid keys see everything.
 */
import type { FieldChange } from '../../registry/diff.js';
import type { ChangeEvent } from '../../registry/store/types.js';
import type { CallerView } from '../../contract/caller.js';
import { lockedPlaceholder } from './bank-fields.js';
import type { RecordView } from './bank-views.js';

const lockedRecordFields = ['legal_name', 'short_name', 'bic', 'bic8', 'lei'] as const;
/** Change fields whose values are bank codes, not names: visible to everyone. */
const codeChangePrefix = 'successor:';

export interface BankSide {
  readonly bic: string | null;
  readonly bank_name: string | null;
}

export interface Visibility {
  readonly locked: boolean;
  record(view: RecordView): RecordView;
  change(change: FieldChange): FieldChange;
  event(event: ChangeEvent): ChangeEvent;
  side<S extends BankSide>(side: S): S;
}

const lockValue = (value: string | null): string | null =>
  value === null ? null : lockedPlaceholder;

const open: Visibility = {
  locked: false,
  record: (view) => view,
  change: (change) => change,
  event: (event) => event,
  side: (side) => side,
};

const locked: Visibility = {
  locked: true,
  record(view) {
    const result: RecordView = {
      ...view,
      premium_fields_locked: true,
      locked_fields: [...lockedRecordFields],
    };
    for (const field of lockedRecordFields)
      if (result[field] !== null) result[field] = lockedPlaceholder;
    // Published fields repeat the names and identifiers; a locked record leaves them out.
    delete result.published_fields;
    return result;
  },
  change(change) {
    if (change.field.startsWith(codeChangePrefix)) return change;
    return {
      field: change.field,
      before: lockValue(change.before),
      after: lockValue(change.after),
    };
  },
  event(event) {
    return { ...event, changes: event.changes.map((change) => locked.change(change)) };
  },
  side(side) {
    return { ...side, bic: lockValue(side.bic), bank_name: lockValue(side.bank_name) };
  },
};

export function visibilityOf(caller: CallerView): Visibility {
  return caller.paid ? open : locked;
}
