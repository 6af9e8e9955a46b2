import type { Faker } from '@faker-js/faker';

/**
 * The faker calls a profile makes (first and last name, street address, city, job title), drawing exactly what
 * faker draws, in the same order, so seeded profiles stay byte-identical. Faker resolves every `{{a.b}}` of a
 * pattern by walking two entry points (the Faker object and the raw locale definitions) with fresh arrays and
 * closures per step: that walk was most of the faker time of a bulk row. Here each expression is resolved once
 * per locale chain to the values it can end on, and only the draws remain per profile.
 * Anything the compiled form does not model (calls with arguments, arrays or functions half-way through a path)
 * is handed to faker's own helpers.fake() on the string at that point, which is what faker would do next.
 * Pinned against faker itself by faker-patterns.test.ts for every locale chain the engine uses.
 */
type Sex = 'female' | 'male';
type Candidate =
  | { readonly kind: 'array'; readonly values: readonly unknown[] }
  | { readonly kind: 'function'; readonly call: () => unknown }
  | { readonly kind: 'value'; readonly value: unknown };
type Gendered<T> = {
  readonly generic?: readonly T[];
  readonly female?: readonly T[];
  readonly male?: readonly T[];
};
type Weighted<T> = readonly { readonly weight: number; readonly value: T }[];

const placeholderStart = /{{[a-z]/;
const decimalDigits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
const nonZeroDigits = decimalDigits.slice(1);
/** Locale data holds a few hundred patterns; the bound only guards against a caller passing ever new text. */
const templatesMax = 10_000;

interface TemplatePart {
  readonly literal: string;
  readonly candidates: readonly Candidate[];
  /** Offset in the source right after this placeholder's closing braces. */
  readonly resume: number;
}

interface Template {
  readonly source: string;
  readonly parts: readonly TemplatePart[];
  readonly tail: string;
}

function hasBrace(text: string): boolean {
  return text.includes('{') || text.includes('}');
}

/** The expression faker reads between the braces (its exact string steps, for odd texts too). */
function expressionAt(text: string, start: number, end: number): string {
  return text
    .substring(start + 2, end + 2)
    .replace('}}', '')
    .replace('{{', '');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ProfileFaker {
  /** Per expression text: the values its path ends on, in faker's entry-point order; null: faker evaluates it. */
  private readonly compiled = new Map<string, readonly Candidate[] | null>();
  /** Per pattern text of the locale data: its parts, or null when faker's own loop must scan it. */
  private readonly templates = new Map<string, Template | null>();
  private readonly raw: Record<string, Record<string, unknown> | undefined>;

  constructor(readonly faker: Faker) {
    // faker.definitions.raw: the merged locale data without faker's read-only proxies.
    this.raw = (
      faker.definitions as unknown as { raw: Record<string, Record<string, unknown> | undefined> }
    ).raw;
  }

  firstName(sex: Sex): string {
    return this.faker.person.firstName(sex);
  }

  /** faker's person.lastName(sex). */
  lastName(sex?: Sex): string {
    const patterns = this.raw.person?.last_name_pattern as
      Gendered<{ weight: number; value: string }> | undefined | null;
    if (patterns == null) return this.faker.person.lastName(sex);
    return this.fake(
      this.faker.helpers.weightedArrayElement(this.bySex(sex, patterns) as Weighted<string>),
    );
  }

  /** faker's location.streetAddress(false). */
  streetAddress(): string {
    return this.fake(
      this.definition('location', 'street_address', 'normal') as string | readonly string[],
    );
  }

  /** faker's location.city(). */
  city(): string {
    return this.fake(this.definition('location', 'city_pattern') as string | readonly string[]);
  }

  /** faker's person.jobTitle(). */
  jobTitle(): string {
    return this.fake(this.definition('person', 'job_title_pattern') as string | readonly string[]);
  }

  /** faker's location.street(). */
  private street(): string {
    return this.fake(this.definition('location', 'street_pattern') as string | readonly string[]);
  }

  /** faker's location.buildingNumber(): a format, each run of # filled as string.numeric without a leading zero. */
  private buildingNumber(): string {
    const format = this.faker.helpers.arrayElement(
      this.definition('location', 'building_number') as readonly string[],
    );
    return format.replaceAll(/#+/g, (run) => this.digitsWithoutLeadingZero(run.length));
  }

  /** faker's string.numeric({ length, allowLeadingZeros: false }): a digit 1-9, then digits 0-9. */
  private digitsWithoutLeadingZero(length: number): string {
    let digits = this.faker.helpers.arrayElement(nonZeroDigits);
    for (let index = 1; index < length; index++)
      digits += this.faker.helpers.arrayElement(decimalDigits);
    return digits;
  }

  /** faker reads definitions through a proxy that throws when one is missing: so does this. */
  private definition(category: 'location' | 'person', ...path: string[]): unknown {
    let value: unknown = this.raw[category];
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (value == null)
      throw new Error(`faker locale data ${category}.${path.join('.')} is missing`);
    return value;
  }

  /** faker's selectDefinition: the sex's list, or the generic one, weighted by size when both exist. */
  private bySex<T>(sex: Sex | undefined, lists: Gendered<T>): readonly T[] {
    const chosen = sex ?? (this.faker.person.sexType() as Sex);
    const own = chosen === 'female' ? lists.female : lists.male;
    if (own == null) return lists.generic ?? [];
    if (lists.generic == null) return own;
    return this.faker.helpers.weightedArrayElement([
      { weight: 3 * Math.sqrt(own.length), value: own },
      { weight: Math.sqrt(lists.generic.length), value: lists.generic },
    ]);
  }

  /** faker's helpers.fake(): the first placeholder is replaced and the whole text scanned again. */
  fake(pattern: string | readonly string[]): string {
    const text = typeof pattern === 'string' ? pattern : this.faker.helpers.arrayElement(pattern);
    const template = this.templateOf(text);
    return template === null ? this.fakeText(text) : this.fill(template);
  }

  /** faker's scan loop on text as it stands: find the first placeholder, replace it, scan again from the start. */
  private fakeText(initial: string): string {
    let text = initial;
    for (;;) {
      const start = text.search(placeholderStart);
      const end = text.indexOf('}}', start);
      if (start === -1 || end === -1) return text;
      const candidates = this.compile(expressionAt(text, start, end));
      if (candidates === null) return this.faker.helpers.fake(text);
      text = text.substring(0, start) + String(this.evaluate(candidates)) + text.substring(end + 2);
    }
  }

  /**
   * A pattern split once into literal text and placeholders. While the values put in carry no brace, faker's
   * rescan from the start finds exactly the next placeholder of the pattern, so filling the parts in order is
   * the same; a value with a brace hands the text as it stands to faker's loop.
   */
  private fill(template: Template): string {
    let out = '';
    for (const part of template.parts) {
      out += part.literal;
      const value = String(this.evaluate(part.candidates));
      if (hasBrace(value))
        return this.fakeText(out + value + template.source.substring(part.resume));
      out += value;
    }
    return out + template.tail;
  }

  /** The pattern's parts, when its literal text has no brace and every expression is modelled; else null. */
  private templateOf(source: string): Template | null {
    let template = this.templates.get(source);
    if (template === undefined) {
      template = this.split(source);
      if (this.templates.size < templatesMax) this.templates.set(source, template);
    }
    return template;
  }

  private split(source: string): Template | null {
    const parts: TemplatePart[] = [];
    let offset = 0;
    for (;;) {
      const rest = source.substring(offset);
      const start = rest.search(placeholderStart);
      const end = rest.indexOf('}}', start);
      if (start === -1 || end === -1) return hasBrace(rest) ? null : { source, parts, tail: rest };
      const literal = rest.substring(0, start);
      const candidates = this.compile(expressionAt(rest, start, end));
      if (hasBrace(literal) || candidates === null) return null;
      offset += end + 2;
      parts.push({ literal, candidates, resume: offset });
    }
  }

  /** As faker's expression walk ends: every array candidate draws one element, then the first candidate wins. */
  private evaluate(candidates: readonly Candidate[]): unknown {
    let first: unknown;
    for (let index = 0; index < candidates.length; index++) {
      const candidate = candidates[index] as Candidate;
      const value =
        candidate.kind === 'array'
          ? this.faker.helpers.arrayElement(candidate.values)
          : candidate.kind === 'function'
            ? candidate.call
            : candidate.value;
      if (index === 0) first = value;
    }
    return typeof first === 'function' ? (first as () => unknown)() : first;
  }

  private compile(expression: string): readonly Candidate[] | null {
    let candidates = this.compiled.get(expression);
    if (candidates === undefined) {
      candidates = this.resolve(expression);
      this.compiled.set(expression, candidates);
    }
    return candidates;
  }

  /**
   * faker walks `a.b.c` from [faker, raw definitions], dropping null steps; only plain property paths whose
   * intermediate steps are plain objects are modelled (an array half-way would draw there, a function be called).
   */
  private resolve(expression: string): readonly Candidate[] | null {
    if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(expression)) return null;
    const path = expression.split('.');
    let values: unknown[] = [this.faker, this.raw];
    for (let step = 0; step < path.length; step++) {
      const key = path[step] as string;
      values = values
        .map((value) =>
          typeof value === 'object' && value !== null
            ? (value as Record<string, unknown>)[key]
            : undefined,
        )
        .filter((value) => value != null);
      if (
        step < path.length - 1 &&
        values.some((value) => !isObject(value) || typeof value === 'function')
      )
        return null;
    }
    if (values.length === 0) return null;
    return values.map((value) => this.candidateOf(expression, value));
  }

  private candidateOf(expression: string, value: unknown): Candidate {
    if (Array.isArray(value)) return { kind: 'array', values: value };
    if (typeof value !== 'function') return { kind: 'value', value };
    // faker's own methods that would go back through its slow fake(): the same draws, through ours.
    const own: Record<string, (() => unknown) | undefined> = {
      'location.street': () => this.street(),
      'location.buildingNumber': () => this.buildingNumber(),
      'location.city': () => this.city(),
      'person.lastName': () => this.lastName(),
      'person.jobTitle': () => this.jobTitle(),
    };
    const fast = own[expression];
    return {
      kind: 'function',
      call:
        fast !== undefined && value === this.methodOf(expression) ? fast : (value as () => unknown),
    };
  }

  private methodOf(expression: string): unknown {
    const [module, method] = expression.split('.') as [string, string];
    return (this.faker as unknown as Record<string, Record<string, unknown>>)[module]?.[method];
  }
}
