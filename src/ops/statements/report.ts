import type { RoutingVerdict } from '../../domain/routing/aba.js';
import { runChecks, type IbanFinding } from '../../domain/statements/checks.js';
import type { DocumentFacts } from '../../domain/statements/document.js';
import { readFields, type Found, type StatementFields } from '../../domain/statements/fields.js';
import { mediaTypeOf } from '../../domain/statements/file-type.js';
import type { CheckStatus } from '../../domain/statements/findings.js';
import {
  recommendationsOf,
  riskLevelOf,
  scoreOf,
  sortSignals,
  summaryOf,
  type RiskLevel,
} from '../../domain/statements/score.js';
import type { Signal } from '../../domain/statements/signals.js';
import { formatMinor } from '../../domain/statements/values.js';
import { limits } from '../../limits.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RoutingDirectory } from '../../registry/routing-directory.js';
import type { CallerView } from '../framework/op.js';
import { validationRow, type ValidationRow } from '../iban/validate.js';

/** A completed review's report (a type, not an interface: the review store keeps it as a plain JSON object). */
export type StatementReport = {
  readonly score: number;
  readonly risk_level: RiskLevel;
  readonly is_bank_statement: boolean;
  readonly summary: string;
  readonly document: Record<string, unknown>;
  readonly extracted_fields: Record<string, unknown>;
  readonly iban_checks: readonly ValidationRow[];
  readonly domestic_account_checks: readonly Record<string, unknown>[];
  /** Every content check with its status; not_checked carries the reason. */
  readonly checks: readonly CheckStatus[];
  readonly positive_signals: readonly Signal[];
  readonly risk_signals: readonly Signal[];
  readonly inconsistencies: readonly Signal[];
  readonly recommendations: readonly string[];
};

export interface ReportContext {
  readonly now: Date;
  readonly bank: BankDirectory;
  readonly caller: CallerView;
  readonly expectedBank: string | null;
  readonly expectedBankSlug: string | null;
  /** The FedACH/Fedwire directory, when the instance has one: routing checks then say whether it lists the number. */
  readonly routing?: RoutingDirectory;
}

const money = (found: Found<number> | null) => (found === null ? null : formatMinor(found.value));

/** Account numbers are shown masked: the last four digits identify the account to the reviewer. */
function masked(value: string): string {
  return value.length <= 4 ? value : `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}

function extractedFields(fields: StatementFields): Record<string, unknown> {
  return {
    account_holder: fields.accountHolder?.value ?? null,
    iban: fields.ibans[0]?.value ?? null,
    ibans: fields.ibans.map((found) => found.value),
    bank_name: fields.bankName?.value ?? null,
    bic: fields.bic?.value ?? null,
    statement_period: fields.period === null ? null : fields.period.value,
    statement_date: fields.statementDate?.value ?? null,
    language: fields.language,
    number_format: fields.convention.decimal === ',' ? 'decimal_comma' : 'decimal_point',
    currency: fields.currency?.value ?? null,
    opening_balance: money(fields.openingBalance),
    closing_balance: money(fields.closingBalance),
    routing_number: fields.routingNumber?.value ?? null,
    account_number_masked:
      fields.accountNumber === null ? null : masked(fields.accountNumber.value),
    transaction_count: fields.transactions.length,
    transactions: fields.transactions.map((row) => ({
      date: row.date,
      description: row.description,
      amount: formatMinor(row.amount),
      balance: row.balance === null ? null : formatMinor(row.balance),
      page: row.page,
    })),
  };
}

/** not_loaded: no directory on this instance; found / not_found: whether any loaded source lists the number. */
function directoryPresence(
  routing: RoutingDirectory | undefined,
  routingNumber: string,
): { directory: string; directory_names: string[] } {
  if (routing === undefined || routing.sources().length === 0)
    return { directory: 'not_loaded', directory_names: [] };
  const observations = routing.byRoutingNumber(routingNumber);
  return {
    directory: observations.length > 0 ? 'found' : 'not_found',
    directory_names: [
      ...new Set(
        observations.map((seen) => seen.name).filter((name): name is string => name !== null),
      ),
    ],
  };
}

/** The routing number as the checks judged it (`verdict`, computed once), and the account number's shape. */
function domesticChecks(
  fields: StatementFields,
  verdict: RoutingVerdict | null,
  routing: RoutingDirectory | undefined,
): Record<string, unknown>[] {
  const checks: Record<string, unknown>[] = [];
  if (verdict !== null) {
    checks.push({
      type: 'routing_number',
      value: verdict.input,
      valid: verdict.valid,
      error: verdict.error,
      prefix_kind: verdict.prefix?.kind ?? null,
      expected_check_digit: verdict.expected_check_digit,
      ...(verdict.valid
        ? directoryPresence(routing, verdict.input)
        : { directory: 'not_checked', directory_names: [] }),
    });
  }
  if (fields.accountNumber !== null) {
    const digits = fields.accountNumber.value;
    // US account numbers have no public check digit: only the shape can be checked (4 to 17 digits is the range US banks use).
    checks.push({
      type: 'account_number',
      value_masked: masked(digits),
      format_valid: /^\d{4,17}$/.test(digits),
      check: 'format_only',
    });
  }
  return checks;
}

function ibanChecks(ibans: readonly IbanFinding[], context: ReportContext): ValidationRow[] {
  return ibans.map((entry) =>
    validationRow(entry.iban, entry.verdict, context.caller, context.bank),
  );
}

/** The completed review: extraction facts in, the spec's report out. Pure given its inputs. */
export function buildReport(facts: DocumentFacts, context: ReportContext): StatementReport {
  const fields = readFields(facts.lines, limits.statementTransactionsMax);
  const outcome = runChecks(facts, fields, {
    now: context.now,
    bank: context.bank,
    expectedBank: context.expectedBank,
    expectedBankSlug: context.expectedBankSlug,
    revealBank: context.caller.paid,
    evidenceCharsMax: limits.statementEvidenceCharsMax,
    evidencePerCodeMax: limits.statementSignalsPerCodeMax,
  });
  const sorted = sortSignals(outcome.signals);
  const findings = [...sorted.risk, ...sorted.inconsistencies];
  const score = scoreOf(findings);
  const level = riskLevelOf(score);
  return {
    score,
    risk_level: level,
    is_bank_statement: outcome.isBankStatement,
    summary: summaryOf(score, level, outcome.isBankStatement, findings),
    document: {
      kind: facts.kind,
      media_type: mediaTypeOf[facts.kind],
      pages: facts.pages,
      ...(facts.pdf === null
        ? {}
        : {
            pdf_version: facts.pdf.version,
            producer: facts.pdf.producer,
            creator: facts.pdf.creator,
            created_at: facts.pdf.creationDate,
            modified_at: facts.pdf.modificationDate,
            revisions: facts.pdf.revisions,
            fonts_per_page: facts.pdf.fontsPerPage,
            pages_without_text_layer: facts.pdf.pagesWithoutText,
          }),
      ...(facts.image === null
        ? {}
        : {
            width: facts.image.width,
            height: facts.image.height,
            ocr_confidence: Math.round(facts.image.ocrConfidence),
          }),
    },
    extracted_fields: extractedFields(fields),
    iban_checks: ibanChecks(outcome.ibans, context),
    domestic_account_checks: domesticChecks(fields, outcome.routing, context.routing),
    checks: outcome.checks,
    positive_signals: sorted.positive,
    risk_signals: sorted.risk,
    inconsistencies: sorted.inconsistencies,
    recommendations: recommendationsOf(findings),
  };
}
