import type { TSchema } from '@sinclair/typebox';

/**
 * A plain-code acceptor for the simplest input shapes: an object closed to unknown fields whose fields are
 * strings or arrays of strings, bounded by length and count only (the validate body, { ibans: [...] }). It only
 * ever says "valid"; anything it does not accept at a glance goes to ajv, which then gives the verdict and the
 * Error object as before, so a refusal reads exactly as it did. On a 100-IBAN body ajv spent most of its time
 * counting each string's code points (its maxLength check); a string of at most maxLength UTF-16 units cannot
 * have more code points than that, so the acceptor only compares `length`.
 */
export type FastAcceptor = (raw: unknown) => boolean;

interface StringRule {
  readonly kind: 'string';
  readonly minLength: number;
  readonly maxLength: number;
}

interface ListRule {
  readonly kind: 'list';
  readonly minItems: number;
  readonly maxItems: number;
  readonly item: StringRule;
}

type FieldRule = StringRule | ListRule;

interface Field {
  readonly name: string;
  readonly required: boolean;
  readonly rule: FieldRule;
}

/** The keywords a field of the simple shape may carry: anything else (pattern, default, format...) rules it out. */
const stringKeywords = new Set(['type', 'minLength', 'maxLength', 'description', 'examples']);
const listKeywords = new Set(['type', 'items', 'minItems', 'maxItems', 'description', 'examples']);
const objectKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
]);

function onlyKeywords(schema: object, allowed: ReadonlySet<string>): boolean {
  return Object.keys(schema).every((keyword) => allowed.has(keyword));
}

function bound(value: unknown, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function stringRuleOf(schema: Record<string, unknown>): StringRule | undefined {
  if (schema.type !== 'string' || !onlyKeywords(schema, stringKeywords)) return undefined;
  const minLength = bound(schema.minLength, 0);
  const maxLength = bound(schema.maxLength, Number.MAX_SAFE_INTEGER);
  if (minLength === undefined || maxLength === undefined) return undefined;
  return { kind: 'string', minLength, maxLength };
}

function fieldRuleOf(schema: Record<string, unknown>): FieldRule | undefined {
  if (schema.type === 'string') return stringRuleOf(schema);
  if (schema.type !== 'array' || !onlyKeywords(schema, listKeywords)) return undefined;
  const items = schema.items;
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return undefined;
  const item = stringRuleOf(items as Record<string, unknown>);
  const minItems = bound(schema.minItems, 0);
  const maxItems = bound(schema.maxItems, Number.MAX_SAFE_INTEGER);
  if (item === undefined || minItems === undefined || maxItems === undefined) return undefined;
  return { kind: 'list', minItems, maxItems, item };
}

function fieldsOf(schema: Record<string, unknown>): Field[] | undefined {
  const { properties, required = [] } = schema as { properties?: unknown; required?: unknown };
  if (properties === null || typeof properties !== 'object' || !Array.isArray(required))
    return undefined;
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (property === null || typeof property !== 'object') return undefined;
    const rule = fieldRuleOf(property as Record<string, unknown>);
    if (rule === undefined) return undefined;
    fields.push({ name, required: required.includes(name), rule });
  }
  return required.every((name) => fields.some((field) => field.name === name)) ? fields : undefined;
}

/**
 * Surely within the bounds without counting code points: a string has at most `length` and at least
 * `length / 2` of them (a surrogate pair is two units); a string in between is left to ajv.
 */
function stringFits(value: unknown, rule: StringRule): boolean {
  return (
    typeof value === 'string' &&
    value.length <= rule.maxLength &&
    (rule.minLength === 0 || value.length >= 2 * rule.minLength)
  );
}

function fieldFits(value: unknown, rule: FieldRule): boolean {
  if (rule.kind === 'string') return stringFits(value, rule);
  if (!Array.isArray(value) || value.length < rule.minItems || value.length > rule.maxItems)
    return false;
  for (let index = 0; index < value.length; index++)
    if (!stringFits(value[index], rule.item)) return false;
  return true;
}

function acceptorOver(fields: readonly Field[]): FastAcceptor {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const requiredCount = fields.filter((field) => field.required).length;
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false;
    const record = raw as Record<string, unknown>;
    let required = 0;
    // for-in, as ajv's own additionalProperties check walks it (inherited enumerable fields included).
    for (const name in record) {
      const field = byName.get(name);
      if (field === undefined || !fieldFits(record[name], field.rule)) return false;
      if (field.required) required++;
    }
    return required === requiredCount;
  };
}

/** The acceptor for `schema`, or undefined when the schema is not of the simple shape (ajv alone decides). */
export function fastAcceptorOf(schema: TSchema): FastAcceptor | undefined {
  const root = schema as Record<string, unknown>;
  if (
    root.type !== 'object' ||
    root.additionalProperties !== false ||
    !onlyKeywords(root, objectKeywords)
  )
    return undefined;
  const fields = fieldsOf(root);
  return fields === undefined ? undefined : acceptorOver(fields);
}
