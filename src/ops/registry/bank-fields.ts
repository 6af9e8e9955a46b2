import { Type } from '@sinclair/typebox';
import type { BankInfo } from '../../registry/bank-directory.js';
import type { CallerView } from '../framework/op.js';
import { nullableString } from '../framework/schemas.js';
import type { RowTail } from '../../render/json-bytes.js';

/** Clarifications §3: the free-plan placeholder word and the relative purchase address. */
export const lockedPlaceholder = 'LOCKED';
export const premiumUnlockUrl = '/pricing';
/** Spec validation row: an invalid row carries N/A in all three bank fields. */
export const notApplicable = 'N/A';

/** Frozen: every free row shares this list, and the REST serializer caches frozen values by identity. */
const lockedFieldNames = Object.freeze(['swift_code', 'bank_name', 'bank_intelligence'] as const);

export interface BankIntelligence {
  readonly lei: string | null;
  readonly legal_name: string | null;
  readonly entity_status: string | null;
  readonly registration_status: string | null;
  readonly payment_schemes: readonly string[];
  readonly domestic_registry: {
    readonly bank_code: string;
    readonly account_checksum_method: string | null;
  };
}

export interface BankFields {
  swift_code: string | null;
  bank_name: string | null;
  bank_city: string | null;
  /** Clarifications §5: an unknown bank is not an invalid IBAN, it is a no_match. */
  bank_match: 'matched' | 'no_match' | 'not_requested';
  premium_fields_locked: boolean;
  bank_intelligence?: BankIntelligence;
  locked_fields?: readonly string[];
  premium_unlock_url?: string;
  /** Only when a paid key's BIC reveals are spent: why the fields are locked although the plan shows them. */
  locked_reason?: 'bic_reveals_exhausted';
}

/**
 * One bank_intelligence object per bank, reused by every row that names it: the REST serializer
 * (transport/http/rows-json.ts) writes a shared object once. Rows must never mutate it.
 */
const intelligenceByBank = new WeakMap<BankInfo, BankIntelligence>();

function intelligenceOf(info: BankInfo): BankIntelligence {
  let intelligence = intelligenceByBank.get(info);
  if (intelligence === undefined) {
    intelligence = Object.freeze(buildIntelligence(info));
    intelligenceByBank.set(info, intelligence);
  }
  return intelligence;
}

function buildIntelligence(info: BankInfo): BankIntelligence {
  return {
    lei: info.lei,
    legal_name: info.legalName,
    entity_status: info.entityStatus,
    registration_status: info.registrationStatus,
    payment_schemes: info.paymentSchemes,
    domestic_registry: {
      bank_code: info.bankCode,
      account_checksum_method: info.accountCheckMethod,
    },
  };
}

/** What a caller may see of a bank: its fields, LOCKED placeholders (free, keyless), or locked because a paid key's reveals are spent. */
export type Visibility = 'shown' | 'locked' | 'spent';

export function visibilityOf(caller: CallerView): Visibility {
  return !caller.paid ? 'locked' : caller.revealsSpent === true ? 'spent' : 'shown';
}

function buildBankFields(
  info: BankInfo | undefined,
  visibility: Visibility,
  requested: boolean,
): BankFields {
  const bank_match = !requested ? 'not_requested' : info === undefined ? 'no_match' : 'matched';
  const bank_city = info?.city ?? null;
  if (visibility !== 'shown') {
    const fields: BankFields = {
      swift_code: lockedPlaceholder,
      bank_name: lockedPlaceholder,
      bank_city,
      bank_match,
      premium_fields_locked: true,
      locked_fields: lockedFieldNames,
      premium_unlock_url: premiumUnlockUrl,
    };
    if (visibility === 'spent') fields.locked_reason = 'bic_reveals_exhausted';
    return fields;
  }
  const fields: BankFields = {
    swift_code: info?.bic ?? null,
    bank_name: info?.name ?? null,
    bank_city,
    bank_match,
    premium_fields_locked: false,
  };
  if (info !== undefined) fields.bank_intelligence = intelligenceOf(info);
  return fields;
}

function buildInvalidRowFields(visibility: Visibility): BankFields {
  const locked = visibility !== 'shown';
  const fields: BankFields = {
    swift_code: notApplicable,
    bank_name: notApplicable,
    bank_city: notApplicable,
    bank_match: 'not_requested',
    premium_fields_locked: locked,
  };
  if (locked) {
    fields.locked_fields = lockedFieldNames;
    fields.premium_unlock_url = premiumUnlockUrl;
    if (visibility === 'spent') fields.locked_reason = 'bic_reveals_exhausted';
  }
  return fields;
}

/** The keys a validation row writes before its bank fields (valid and invalid rows). */
const validRowHead = Object.freeze([
  'iban',
  'valid',
  'country_code',
  'bank_code',
  'national_check',
]);
const invalidRowHead = Object.freeze([
  'iban',
  'valid',
  'error',
  'message',
  'country_code',
  'bank_code',
  'national_check',
]);

/**
 * A row's bank fields, shared by every row with the same bank and visibility: frozen (rows spread them and
 * never change them), with their JSON encoded once as a validation row's tail (`,"swift_code":...}`), so
 * the REST serializer copies one cached fragment per row instead of writing the same bank's fields again.
 */
export interface SharedBankFields {
  readonly fields: Readonly<BankFields>;
  readonly validationTail: RowTail;
}

function shared(fields: BankFields, headKeys: readonly string[]): SharedBankFields {
  const bytes = Buffer.from(`,${JSON.stringify(fields).slice(1)}`, 'utf8');
  return { fields: Object.freeze(fields), validationTail: Object.freeze({ headKeys, bytes }) };
}

const visibilities: readonly Visibility[] = ['shown', 'locked', 'spent'];
/** Per bank: one entry per (visibility, requested), indexed by slotOf. */
const byBank = new WeakMap<BankInfo, (SharedBankFields | undefined)[]>();
const withoutBank: (SharedBankFields | undefined)[] = [];
const invalidRows: (SharedBankFields | undefined)[] = [];

function slotOf(visibility: Visibility, requested: boolean): number {
  return visibilities.indexOf(visibility) * 2 + (requested ? 1 : 0);
}

/**
 * Bank fields of one row. Free and keyless callers see placeholders for swift_code and bank_name and no
 * bank_intelligence (bank_city stays visible, as the spec's validation row says); paid callers see the
 * registry's published values, or nulls with bank_match 'no_match' when the registry does not know the bank.
 */
export function sharedBankFields(
  info: BankInfo | undefined,
  caller: CallerView,
  requested: boolean,
): SharedBankFields {
  const visibility = visibilityOf(caller);
  const slot = slotOf(visibility, requested);
  let cache = info === undefined ? withoutBank : byBank.get(info);
  if (cache === undefined) byBank.set(info as BankInfo, (cache = []));
  return (cache[slot] ??= shared(buildBankFields(info, visibility, requested), validRowHead));
}

export function bankFieldsOf(
  info: BankInfo | undefined,
  caller: CallerView,
  requested: boolean,
): Readonly<BankFields> {
  return sharedBankFields(info, caller, requested).fields;
}

/** The same fields for an invalid row: N/A, locked markers kept for free callers. */
export function invalidRowFields(caller: CallerView): SharedBankFields {
  const visibility = visibilityOf(caller);
  return (invalidRows[slotOf(visibility, false)] ??= shared(
    buildInvalidRowFields(visibility),
    invalidRowHead,
  ));
}

export const bankIntelligenceSchema = Type.Object({
  lei: nullableString('ISO 17442 LEI as published'),
  legal_name: nullableString('Legal name as published'),
  entity_status: nullableString('GLEIF entity status (ACTIVE, INACTIVE)'),
  registration_status: nullableString('GLEIF registration status (ISSUED, LAPSED, ...)'),
  payment_schemes: Type.Array(Type.String(), {
    description: 'sct, sct_inst, sdd_b2b, sdd_core, vop where published',
  }),
  domestic_registry: Type.Object({
    bank_code: Type.String(),
    account_checksum_method: nullableString(
      'National account check method (e.g. Bundesbank 00..E4)',
    ),
  }),
});

export const bankFieldSchemas = {
  swift_code: nullableString('BIC as published; LOCKED for free keys; N/A on invalid rows'),
  bank_name: nullableString('Bank name as published; LOCKED for free keys; N/A on invalid rows'),
  bank_city: nullableString('Bank city as published; N/A on invalid rows'),
  bank_match: Type.Union([
    Type.Literal('matched'),
    Type.Literal('no_match'),
    Type.Literal('not_requested'),
  ]),
  premium_fields_locked: Type.Boolean(),
  bank_intelligence: Type.Optional(bankIntelligenceSchema),
  locked_fields: Type.Optional(Type.Array(Type.String())),
  premium_unlock_url: Type.Optional(Type.String()),
  locked_reason: Type.Optional(
    Type.Literal('bic_reveals_exhausted', {
      description: 'A paid key whose BIC reveals are spent: bank fields locked instead of a 429',
    }),
  ),
};
