/**
 * Runs corpus statements through the analysis a pool worker runs (analyzeUpload: the encrypted upload on disk,
 * decryption, extraction, the checks, the report) and compares a report with the expected outcome.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BankDirectory } from '../../../src/registry/bank-directory.js';
import { sniffStatementFile } from '../../../src/domain/statements/file-type.js';
import { analyzeUpload } from '../../../src/ops/statements/analyze-upload.js';
import type { StatementReport } from '../../../src/ops/statements/report.js';
import { readStatementReport } from '../../../src/ops/statements/report-check.js';
import { encryptUpload } from '../../../src/statements/upload-cipher.js';
import { corpusDir, type Expected } from './generate.js';

/** No registry: the corpus tests what the statement says, not the bank registry (tested on its own). */
const noRegistry = {
  accountCheckMethod: () => undefined,
  bankOf: () => undefined,
} as unknown as BankDirectory;

export function corpusEntries(): Expected[] {
  return readdirSync(corpusDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(corpusDir, name), 'utf8')) as Expected)
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}

export interface Analysed {
  readonly report: StatementReport;
  readonly milliseconds: number;
  /** CPU time of the whole process (every thread, the OCR worker's too) during the analysis. */
  readonly cpuMilliseconds: number;
}

export async function analyse(entry: Expected): Promise<Analysed> {
  const key = randomBytes(32);
  const reviewId = randomBytes(16).toString('hex');
  const bytes = readFileSync(join(corpusDir, entry.file));
  const fileKind = sniffStatementFile(bytes);
  if (fileKind === null) throw new Error(`${entry.file}: not a statement file type`);
  const sealed = encryptUpload(key, reviewId, bytes);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await analyzeUpload(
    {
      kind: 'statement-analysis',
      reviewId,
      sealed,
      key,
      fileKind,
      expectedBank: null,
      expectedBankSlug: null,
      callerPaid: true,
      now: '2026-01-01T00:00:00.000Z',
    },
    noRegistry,
  );
  const milliseconds = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMilliseconds = (used.user + used.system) / 1_000;
  if (!result.ok)
    throw new Error(`${entry.file}: analysis failed: ${result.reason} ${result.detail}`);
  // Checked as the service checks a worker's report: every corpus report must match the report schema.
  return { report: readStatementReport(result.report), milliseconds, cpuMilliseconds };
}

const fold = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export interface Extraction {
  readonly holder: boolean;
  readonly account: boolean;
  readonly period: boolean;
  readonly opening: boolean;
  readonly closing: boolean;
}

export function extractionOf(entry: Expected, report: StatementReport): Extraction {
  const fields = report.extracted_fields as Record<string, unknown>;
  const period = fields.statement_period as { start: string; end: string } | null;
  const masked = fields.account_number_masked as string | null;
  return {
    holder: fold(fields.account_holder as string | null) === fold(entry.fields.holder),
    account:
      entry.fields.iban !== null
        ? fields.iban === entry.fields.iban
        : masked !== null && masked.endsWith(entry.fields.account_number_last4 ?? '-'),
    period:
      period !== null &&
      period.start === entry.fields.period.start &&
      period.end === entry.fields.period.end,
    opening: fields.opening_balance === entry.fields.opening_balance,
    closing: fields.closing_balance === entry.fields.closing_balance,
  };
}

const codesIn = (report: StatementReport) =>
  [...report.risk_signals, ...report.inconsistencies].map((signal) => signal.code as string);

/** What is wrong with a report against its expected outcome (empty: as expected). */
export function problemsOf(entry: Expected, report: StatementReport): string[] {
  const problems: string[] = [];
  const codes = codesIn(report);
  const high = [...report.risk_signals, ...report.inconsistencies].filter(
    (signal) => signal.severity === 'high',
  );
  if (!report.is_bank_statement) problems.push('not recognised as a bank statement');
  if (entry.clean && high.length > 0)
    problems.push(
      `clean statement with high findings: ${high.map((signal) => signal.code).join(', ')}`,
    );
  for (const code of entry.codes)
    if (!codes.includes(code))
      problems.push(`missing ${code} (found: ${codes.join(', ') || 'none'})`);
  return problems;
}
