import { countryFormats } from '../countries.js';
import { conventionOf } from './index.js';
import { swiftRegistryEntry } from './sources.js';
import type { ConventionRule, ConventionSource } from './types.js';

/** The registry entry is cited in full once, above the table; each row names the country's entry. */
function sourceText(source: ConventionSource, country: string): string {
  if (source.url === swiftRegistryEntry(country).url)
    return `SWIFT IBAN Registry, ${country} entry`;
  return `${source.issuer}, *${source.title}*, ${source.section}, <${source.url}>`;
}

function ruleText(rule: ConventionRule): string {
  const where = rule.from === rule.to ? `${rule.from}` : `${rule.from}-${rule.to}`;
  return `${where} ${rule.field}: ${rule.rule} (${rule.basis})`;
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/**
 * The README table of BBAN conventions, one row per registry country, rendered from the table the generator
 * uses (a test keeps README.md equal to it). Sources are listed once per distinct document.
 */
export function conventionsMarkdown(): string {
  const lines = [
    '| Country | BBAN | Conventions (BBAN positions, 1-based; basis) | Sources |',
    '|---|---|---|---|',
  ];
  for (const format of countryFormats) {
    const convention = conventionOf(format);
    const rules = convention.rules.map(ruleText);
    if (convention.note !== null) rules.push(convention.note);
    if (rules.length === 0)
      rules.push('none: the registry classes are already exact (only `n` and `a`)');
    const sources = new Map<string, string>();
    for (const rule of convention.rules) {
      for (const source of rule.sources)
        sources.set(source.title + source.section, sourceText(source, format.code));
    }
    const cells = [
      format.code,
      `\`${format.bbanSpec}\``,
      rules.join('; '),
      sources.size === 0 ? '—' : [...sources.values()].join('; '),
    ];
    lines.push(`| ${cells.map(escapeCell).join(' | ')} |`);
  }
  return lines.join('\n');
}
