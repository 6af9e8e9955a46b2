import { countryFormats, generateIban, type CountryFormat } from '../../src/domain/iban/index.js';
import { nationalRuleOf } from '../../src/domain/iban/national/index.js';
import {
  germanMethodTable,
  bankCodeDependentMethods,
} from '../../src/domain/iban/national/de/method-table.js';
import type { NationalContext } from '../../src/domain/iban/national/types.js';
import { requestKeyOf, rowRng, type RequestKey } from '../../src/domain/rng.js';

/** One fixed key: every run benchmarks exactly the same IBANs. */
export const benchKey: RequestKey = requestKeyOf('ibanqa-bench', 'mixed-country list v1');

/**
 * `count` synthetic IBANs, row i from rowRng(benchKey, i) in country i mod (number of countries), so
 * every registry country appears equally often. Electronic format (no spaces).
 */
export function mixedIbans(
  count: number,
  context: NationalContext,
  formats: readonly CountryFormat[] = countryFormats,
): string[] {
  const ibans = new Array<string>(count);
  for (let index = 0; index < count; index++) {
    const format = formats[index % formats.length] as CountryFormat;
    ibans[index] = generateIban(format, rowRng(benchKey, index), {}, context).iban;
  }
  // Generated IBANs are concatenations (V8 cons strings); a server reads flat strings from JSON.parse,
  // so the benchmark does too. Measured: cons strings made every validator up to 2x slower and noisier.
  return JSON.parse(JSON.stringify(ibans)) as string[];
}

/** Splits a list into request bodies of `size` IBANs each (the last partial chunk is dropped). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start + size <= items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

/**
 * SYNTHETIC registry context for Germany only: assigns every bank code one of the Bundesbank method
 * codes by a hash of the code. It is NOT the real assignment (the embedded directory carries no
 * methods today); it exists so the benchmark can time the German method code path at all.
 */
export function syntheticGermanMethodContext(): NationalContext {
  const methods = [...germanMethodTable.keys()]
    .filter((code) => !bankCodeDependentMethods.has(code))
    .sort();
  return {
    accountCheckMethod(countryCode, bankCode) {
      if (countryCode !== 'DE') return undefined;
      let hash = 0;
      for (let index = 0; index < bankCode.length; index++)
        hash = (hash * 31 + bankCode.charCodeAt(index)) >>> 0;
      return methods[hash % methods.length];
    },
  };
}

export interface CountryClass {
  readonly name: string;
  readonly formats: readonly CountryFormat[];
  readonly context: NationalContext;
}

/** Generation cost differs by what the BBAN needs: nothing, a national check digit, or a German method. */
export function countryClasses(directory: NationalContext): CountryClass[] {
  const withoutDe = countryFormats.filter((format) => format.code !== 'DE');
  const germany = countryFormats.filter((format) => format.code === 'DE');
  return [
    {
      name: 'mod 97 only (no national rule)',
      formats: withoutDe.filter((f) => nationalRuleOf(f.code) === undefined),
      context: directory,
    },
    {
      name: 'national check digits (rule countries except DE)',
      formats: withoutDe.filter((f) => nationalRuleOf(f.code) !== undefined),
      context: directory,
    },
    {
      name: 'DE, service directory (random bank codes: not_checked)',
      formats: germany,
      context: directory,
    },
    {
      name: 'DE, SYNTHETIC method per bank code (times the method code path)',
      formats: germany,
      context: syntheticGermanMethodContext(),
    },
  ];
}
