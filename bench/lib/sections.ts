import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Sections of bench/RESULTS.md that belong to one driver live between `<!-- name:start -->` and
 * `<!-- name:end -->`. A driver replaces only its own section; the main report keeps all of them.
 */
const sectionPattern = /<!-- ([a-z0-9-]+):start -->[\s\S]*?<!-- \1:end -->/g;

export function markedSections(markdown: string): string[] {
  return markdown.match(sectionPattern) ?? [];
}

export function wrapSection(name: string, body: string): string {
  return `<!-- ${name}:start -->\n${body.trim()}\n<!-- ${name}:end -->`;
}

/** Replaces the named section of the file (or appends it), leaving everything else as it is. */
export function writeSection(path: string, name: string, body: string): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const section = wrapSection(name, body);
  const existing = markedSections(current).find((candidate) =>
    candidate.startsWith(`<!-- ${name}:start -->`),
  );
  writeFileSync(
    path,
    existing === undefined
      ? `${current.trimEnd()}\n\n${section}\n`
      : current.replace(existing, section),
  );
}
