/**
 * The statement corpus (test/statements/corpus) through the analysis a pool worker runs (analyzeUpload:
 * decryption, extraction, checks, report), per language: how often holder, IBAN/account, period, opening and
 * closing balance are read, whether clean statements stay free of high-severity findings and tampered ones get
 * their code, and the median analysis time per text PDF and per scanned page (OCR). One warm-up analysis of
 * each kind first (pdf.js and the tesseract worker start once per thread). Targets: >= 95 % extraction, p50
 * < 300 ms per text PDF, < 3 s per scanned page. Writes bench/results/statements-corpus.json and its section
 * of bench/RESULTS.md.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { closeOcr } from '../src/statements/extract/image.js';
import type { Expected } from '../test/statements/corpus/generate.js';
import {
  analyse,
  corpusEntries,
  extractionOf,
  problemsOf,
  type Extraction,
} from '../test/statements/corpus/run.js';
import { resultsMdPath } from './lib/report.js';
import { median, round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const targets = { extractionPercent: 95, pdfP50Ms: 300, scanP50Ms: 3_000 };
const fieldNames: readonly (keyof Extraction)[] = [
  'holder',
  'account',
  'period',
  'opening',
  'closing',
];

interface Row {
  readonly entry: Expected;
  readonly extraction: Extraction;
  readonly problems: readonly string[];
  readonly milliseconds: number;
  readonly cpuMilliseconds: number;
}

interface LanguageLine {
  readonly language: string;
  readonly statements: number;
  readonly extraction: Record<keyof Extraction, number>;
  readonly cleanWithoutHigh: string;
  readonly tamperedFlagged: string;
  readonly pdfP50Ms: number;
  readonly scanP50Ms: number | null;
  readonly pdfCpuP50Ms: number;
  readonly scanCpuP50Ms: number | null;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 100 : round((100 * part) / whole, 1);

function lineOf(language: string, rows: readonly Row[]): LanguageLine {
  const extraction = Object.fromEntries(
    fieldNames.map((field) => [
      field,
      percent(rows.filter((row) => row.extraction[field]).length, rows.length),
    ]),
  ) as Record<keyof Extraction, number>;
  const clean = rows.filter((row) => row.entry.clean);
  const tampered = rows.filter((row) => !row.entry.clean);
  const of = (kind: 'pdf' | 'png', value: (row: Row) => number) =>
    rows.filter((row) => row.entry.kind === kind).map(value);
  const pdf = of('pdf', (row) => row.milliseconds);
  const scans = of('png', (row) => row.milliseconds);
  const scanCpu = of('png', (row) => row.cpuMilliseconds);
  return {
    language,
    statements: rows.length,
    extraction,
    cleanWithoutHigh: `${clean.filter((row) => row.problems.length === 0).length}/${clean.length}`,
    tamperedFlagged: `${tampered.filter((row) => row.problems.length === 0).length}/${tampered.length}`,
    pdfP50Ms: round(median(pdf), 1),
    scanP50Ms: scans.length === 0 ? null : round(median(scans)),
    pdfCpuP50Ms: round(median(of('pdf', (row) => row.cpuMilliseconds)), 1),
    scanCpuP50Ms: scanCpu.length === 0 ? null : round(median(scanCpu)),
  };
}

async function measure(): Promise<Row[]> {
  const entries = corpusEntries();
  for (const kind of ['pdf', 'png'] as const) {
    const first = entries.find((entry) => entry.kind === kind);
    if (first !== undefined) await analyse(first); // warm-up
  }
  const rows: Row[] = [];
  for (const entry of entries) {
    const { report, milliseconds, cpuMilliseconds } = await analyse(entry);
    rows.push({
      cpuMilliseconds,
      entry,
      extraction: extractionOf(entry, report),
      problems: problemsOf(entry, report),
      milliseconds,
    });
  }
  return rows;
}

function table(lines: readonly LanguageLine[]): string {
  const header =
    '| language | statements | holder % | IBAN/account % | period % | opening % | closing % | clean without high finding | tampered flagged with its code | p50 ms per text PDF (CPU ms) | p50 ms per scanned page (CPU ms) |\n|---|---|---|---|---|---|---|---|---|---|---|';
  const body = lines.map(
    (line) =>
      `| ${line.language} | ${line.statements} | ${fieldNames.map((field) => line.extraction[field]).join(' | ')} | ${line.cleanWithoutHigh} | ${line.tamperedFlagged} | ${line.pdfP50Ms} (${line.pdfCpuP50Ms}) | ${line.scanP50Ms === null ? '-' : `${line.scanP50Ms} (${line.scanCpuP50Ms})`} |`,
  );
  return [header, ...body].join('\n');
}

function section(lines: readonly LanguageLine[], rows: readonly Row[], load: string): string {
  const all = lines[lines.length - 1] as LanguageLine;
  const extractionMet = fieldNames.every(
    (field) => all.extraction[field] >= targets.extractionPercent,
  );
  const misses = rows
    .filter((row) => row.problems.length > 0 || fieldNames.some((field) => !row.extraction[field]))
    .map(
      (row) =>
        `- ${row.entry.file}: ${[...row.problems, ...fieldNames.filter((field) => !row.extraction[field]).map((field) => `${field} not read`)].join('; ')}`,
    );
  return `## Statement corpus by language (bench/statements-corpus.ts, \`npm run bench:statements-corpus\`)

${new Date().toISOString()}. ${rows.length} synthetic statements of test/statements/corpus (10 layouts, text
PDFs and OCR scans) through analyzeUpload in this process, one after another, after one warm-up analysis of each
kind. Load while measuring (\`uptime\`): ${load}. The machine is shared with other agents' builds and tests
(2 cores), so the wall times are upper bounds of what an idle machine gives; the CPU time in brackets (the
whole process, every thread, during the analysis) is what the analysis itself costs and moves less with load.

${table(lines)}

Targets: extraction >= ${targets.extractionPercent} % of every field (${extractionMet ? 'met' : 'not met'}), p50 < ${targets.pdfP50Ms} ms per text PDF
(${all.pdfP50Ms} ms: ${all.pdfP50Ms < targets.pdfP50Ms ? 'met' : 'not met'}), p50 < ${targets.scanP50Ms} ms per scanned page (${all.scanP50Ms ?? '-'} ms: ${(all.scanP50Ms ?? Infinity) < targets.scanP50Ms ? 'met' : 'not met, under the load above'}).

${misses.length === 0 ? 'Every statement as expected.' : `Misses:\n\n${misses.join('\n')}`}`;
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

const before = uptime();
const rows = await measure();
const after = uptime();
await closeOcr();
const languages = [...new Set(rows.map((row) => row.entry.language))].sort();
const lines = [
  ...languages.map((language) =>
    lineOf(
      language,
      rows.filter((row) => row.entry.language === language),
    ),
  ),
  lineOf('all', rows),
];
const load = `before \`${before}\`, after \`${after}\``;
writeResult('statements-corpus', { lines, loadavg: loadavg(), load, targets });
writeSection(resultsMdPath, 'statements-corpus', section(lines, rows, load));
console.log(table(lines));
