import { validateIban, type IbanVerdict } from '../iban/index.js';
import { checkRoutingNumber, type RoutingVerdict } from '../routing/aba.js';
import { foldText } from '../text/fold.js';
import type { CheckContext, StatementBank } from './check-context.js';
import { checkImage, checkPdf } from './document-checks.js';
import type { DocumentFacts } from './document.js';
import type { StatementFields, Transaction } from './fields.js';
import { at, Findings, type CheckStatus } from './findings.js';
import type { Signal } from './signals.js';
import { daysBetween, formatMinor } from './values.js';

/** Why the total cannot be recomputed, or null when it can. */
function arithmeticBlocker(fields: StatementFields): string | null {
  const missing = [
    fields.openingBalance === null ? 'opening balance' : null,
    fields.closingBalance === null ? 'closing balance' : null,
    fields.transactions.length === 0 ? 'transactions' : null,
  ].filter((item): item is string => item !== null);
  if (missing.length > 0) return `not read from the statement: ${missing.join(', ')}`;
  if (fields.unreadableRows.length > 0)
    return `${fields.unreadableRows.length} booking line(s) print an amount that could not be read`;
  const unknown = fields.transactions.filter((row) => !row.signKnown).length;
  return unknown > 0
    ? `${unknown} transaction(s) print no sign and no row balance shows their direction`
    : null;
}

function checkArithmetic(fields: StatementFields, findings: Findings): void {
  const blocker = arithmeticBlocker(fields);
  const { openingBalance: opening, closingBalance: closing, transactions: rows } = fields;
  if (blocker !== null || opening === null || closing === null) {
    findings.notChecked('balance_arithmetic', blocker ?? 'balances missing');
    return;
  }
  const expected = rows.reduce((sum, row) => sum + row.amount, opening.value);
  findings.ran('balance_arithmetic', expected === closing.value);
  if (expected === closing.value)
    findings.add(
      'BALANCES_RECONCILE',
      `Opening ${formatMinor(opening.value)} plus ${rows.length} transactions equals the closing ${formatMinor(closing.value)}`,
    );
  else
    findings.add(
      'BALANCE_MISMATCH',
      `Opening ${formatMinor(opening.value)} plus the transactions gives ${formatMinor(expected)}, the statement prints ${formatMinor(closing.value)}`,
      [at(opening), at(closing)],
    );
}

/** A row whose sign is unknown breaks the chain only when neither direction gives its balance. */
function follows(previous: number, row: Transaction): boolean {
  if (row.balance === null) return true;
  if (row.signKnown) return previous + row.amount === row.balance;
  return previous + row.amount === row.balance || previous - row.amount === row.balance;
}

function checkRunningBalances(fields: StatementFields, findings: Findings): void {
  const rows = fields.transactions;
  const withBalance = rows.filter((row) => row.balance !== null);
  if (withBalance.length === 0) {
    findings.notChecked('running_balances', 'no transaction row prints a balance');
    return;
  }
  let previous: number | null = fields.openingBalance?.value ?? null;
  let breaks = 0;
  for (const row of rows) {
    if (row.gapBefore) previous = null;
    if (previous !== null && !follows(previous, row)) {
      breaks += 1;
      findings.add(
        'RUNNING_BALANCE_BREAK',
        `Row balance ${formatMinor(row.balance ?? 0)} should be ${formatMinor(previous + row.amount)}`,
        [at(row)],
      );
    }
    previous = row.balance ?? (previous === null ? null : previous + row.amount);
  }
  checkLastBalance(fields, withBalance, findings);
  findings.ran('running_balances', breaks === 0);
  if (breaks === 0 && withBalance.length > 1)
    findings.add(
      'RUNNING_BALANCES_CONSISTENT',
      `${withBalance.length} row balances follow from the amounts`,
    );
}

function checkLastBalance(
  fields: StatementFields,
  withBalance: readonly Transaction[],
  findings: Findings,
): void {
  const closing = fields.closingBalance;
  const lastBalance = withBalance[withBalance.length - 1]?.balance;
  if (
    closing !== null &&
    lastBalance !== undefined &&
    lastBalance !== null &&
    lastBalance !== closing.value &&
    !findings.has('BALANCE_MISMATCH')
  )
    findings.add(
      'BALANCE_MISMATCH',
      `The last row balance ${formatMinor(lastBalance)} differs from the closing balance ${formatMinor(closing.value)}`,
      [at(closing)],
    );
}

/** Each balance carried between pages against the opening balance plus the rows above it. */
function checkCarriedForward(fields: StatementFields, findings: Findings): void {
  const opening = fields.openingBalance;
  if (fields.carriedForward.length === 0) {
    findings.notChecked(
      'carried_forward_balances',
      'the statement carries no balance between pages',
    );
    return;
  }
  const blocker =
    opening === null
      ? 'no opening balance read'
      : fields.transactions.some((row) => !row.signKnown)
        ? 'some transaction signs are unknown'
        : fields.unreadableRows.length > 0
          ? 'some booking lines could not be read'
          : null;
  if (blocker !== null || opening === null) {
    findings.notChecked('carried_forward_balances', blocker ?? 'no opening balance read');
    return;
  }
  let mismatches = 0;
  for (const point of fields.carriedForward) {
    const expected = fields.transactions
      .slice(0, point.rowsBefore)
      .reduce((sum, row) => sum + row.amount, opening.value);
    if (expected === point.value) continue;
    mismatches += 1;
    findings.add(
      'CARRIED_FORWARD_MISMATCH',
      `Carried balance ${formatMinor(point.value)} should be ${formatMinor(expected)}`,
      [at(point)],
    );
  }
  findings.ran('carried_forward_balances', mismatches === 0);
}

function checkBalances(fields: StatementFields, findings: Findings): void {
  checkArithmetic(fields, findings);
  checkRunningBalances(fields, findings);
  checkCarriedForward(fields, findings);
}

function checkRows(rows: readonly Transaction[], findings: Findings): void {
  const seen = new Map<string, Transaction>();
  for (const row of rows) {
    const key = `${row.date}|${foldText(row.description)}|${row.amount}`;
    if (seen.has(key))
      findings.add(
        'DUPLICATE_TRANSACTIONS',
        `Repeated transaction ${row.date} ${formatMinor(row.amount)}`,
        [at(row)],
      );
    else seen.set(key, row);
  }
  const round = rows.filter((row) => row.amount !== 0 && row.amount % 10_000 === 0);
  if (rows.length >= 5 && round.length * 2 >= rows.length) {
    findings.add(
      'ROUND_NUMBER_PATTERN',
      `${round.length} of ${rows.length} amounts are whole hundreds`,
      round.map(at),
    );
  }
  const dates = rows.map((row) => row.date);
  const ascending = dates.every(
    (date, index) => index === 0 || (dates[index - 1] as string) <= date,
  );
  const descending = dates.every(
    (date, index) => index === 0 || (dates[index - 1] as string) >= date,
  );
  if (!ascending && !descending) {
    const row = rows.find(
      (candidate, index) => index > 0 && candidate.date < (rows[index - 1] as Transaction).date,
    );
    findings.add(
      'TRANSACTIONS_OUT_OF_ORDER',
      'Transaction dates are not in order',
      row === undefined ? [] : [at(row)],
    );
  }
  const fonts = new Map<string, Transaction[]>();
  for (const row of rows)
    if (row.amountFont !== null)
      fonts.set(row.amountFont, [...(fonts.get(row.amountFont) ?? []), row]);
  if (fonts.size > 1) {
    const [main] = [...fonts].sort((a, b) => b[1].length - a[1].length)[0] as [
      string,
      Transaction[],
    ];
    for (const [font, fontRows] of fonts) {
      if (font !== main)
        for (const row of fontRows)
          findings.add(
            'MIXED_FONTS_IN_AMOUNTS',
            `Amount ${formatMinor(row.amount)} is drawn in another font than the other amounts`,
            [at(row)],
          );
    }
  } else if (fonts.size === 1 && rows.length > 1)
    findings.add('CONSISTENT_AMOUNT_FONTS', `All ${rows.length} amounts share one font`);
}

function checkPeriod(fields: StatementFields, context: CheckContext, findings: Findings): void {
  const period = fields.period;
  if (period === null) {
    findings.notChecked('transaction_dates_in_period', 'no statement period read');
    return;
  }
  const { start, end } = period.value;
  if (start > end)
    findings.add('PERIOD_REVERSED', `The period ends (${end}) before it starts (${start})`, [
      at(period),
    ]);
  else if (daysBetween(start, end) > 92)
    findings.add(
      'PERIOD_IMPLAUSIBLE_LENGTH',
      `The period spans ${daysBetween(start, end) + 1} days`,
      [at(period)],
    );
  if (end > context.now.toISOString().slice(0, 10))
    findings.add('PERIOD_IN_FUTURE', `The period ends on ${end}, after the review date`, [
      at(period),
    ]);
  const outside = fields.transactions.filter((row) => row.date < start || row.date > end);
  for (const row of outside)
    findings.add(
      'TRANSACTION_OUTSIDE_PERIOD',
      `Transaction dated ${row.date} lies outside ${start} to ${end}`,
      [at(row)],
    );
  if (fields.transactions.length === 0)
    findings.notChecked('transaction_dates_in_period', 'no transactions read');
  else findings.ran('transaction_dates_in_period', outside.length === 0);
  if (outside.length === 0 && fields.transactions.length > 0 && start <= end)
    findings.add(
      'DATES_WITHIN_PERIOD',
      `All ${fields.transactions.length} transactions lie inside ${start} to ${end}`,
    );
}

/** Two bank names agree when one's folded words contain the other's first distinctive word. */
export function bankNamesAgree(a: string, b: string): boolean {
  const generic = new Set([
    'BANK',
    'THE',
    'OF',
    'AG',
    'SA',
    'PLC',
    'NA',
    'N',
    'A',
    'EG',
    'EEG',
    'GMBH',
    'LTD',
    'LIMITED',
    'SPA',
    'NV',
    'BV',
    'CO',
    'AND',
    'DE',
    'DU',
    'LA',
    'LE',
    'DER',
    'DIE',
    'FUR',
  ]);
  const words = (text: string) =>
    foldText(text)
      .split(' ')
      .filter((word) => word.length > 1 && !generic.has(word));
  const left = words(a);
  const right = words(b);
  if (left.length === 0 || right.length === 0) return foldText(a) === foldText(b);
  return right.includes(left[0] as string) || left.includes(right[0] as string);
}

function slugOf(text: string): string {
  return foldText(text).toLowerCase().replace(/ /g, '-');
}

export interface IbanFinding {
  readonly iban: string;
  readonly verdict: IbanVerdict;
  readonly bank: StatementBank | undefined;
}

/** The identifiers' verdicts, each computed once: the report shows them as the checks judged them. */
interface IdentifierVerdicts {
  readonly ibans: IbanFinding[];
  readonly routing: RoutingVerdict | null;
}

function checkIdentifiers(
  fields: StatementFields,
  context: CheckContext,
  findings: Findings,
): IdentifierVerdicts {
  const checked = checkIbans(fields, context, findings);
  for (const entry of checked) checkPrintedBank(fields, entry, context, findings);
  checkExpectedBank(fields, checked, context, findings);
  if (fields.ibans.length === 0) findings.notChecked('iban', 'no IBAN printed');
  else
    findings.ran(
      'iban',
      checked.every((entry) => entry.verdict.valid),
    );
  if (fields.routingNumber !== null)
    return { ibans: checked, routing: checkRoutingNumberField(fields.routingNumber, findings) };
  findings.notChecked(
    'routing_number',
    fields.monthFirst
      ? 'no routing number next to a Routing, ABA or RTN label'
      : 'no US routing number printed',
  );
  return { ibans: checked, routing: null };
}

/** Each IBAN's own checks, and the registry bank of each valid one. */
function checkIbans(
  fields: StatementFields,
  context: CheckContext,
  findings: Findings,
): IbanFinding[] {
  const checked: IbanFinding[] = fields.ibans.map((found) => {
    const verdict = validateIban(found.value, context.bank);
    const bank =
      verdict.valid && verdict.countryCode !== null && verdict.bankCode !== null
        ? context.bank.bankOf(verdict.countryCode, verdict.bankCode)
        : undefined;
    if (!verdict.valid)
      findings.add(
        'IBAN_INVALID',
        `IBAN ${found.value} is invalid: ${verdict.error ?? 'invalid'}`,
        [at(found)],
      );
    return { iban: found.value, verdict, bank };
  });
  if (checked.length > 0 && checked.every((entry) => entry.verdict.valid))
    findings.add('IBAN_VALID', `${checked.length} IBAN(s) pass every check`);
  return checked;
}

/** The printed BIC and bank name against one IBAN's country and registry bank. */
function checkPrintedBank(
  fields: StatementFields,
  { iban, verdict, bank }: IbanFinding,
  context: CheckContext,
  findings: Findings,
): void {
  const printedName = fields.bankName?.value ?? null;
  const printedBic = fields.bic?.value ?? null;
  if (
    printedBic !== null &&
    verdict.countryCode !== null &&
    printedBic.slice(4, 6) !== verdict.countryCode
  ) {
    findings.add(
      'BIC_COUNTRY_MISMATCH',
      `BIC ${printedBic} is of country ${printedBic.slice(4, 6)}, IBAN ${iban} of ${verdict.countryCode}`,
      fields.bic === null ? [] : [at(fields.bic)],
    );
  }
  if (bank === undefined) return;
  const nameDiffers =
    printedName !== null && bank.name !== null && !bankNamesAgree(printedName, bank.name);
  const bicDiffers =
    printedBic !== null && bank.bic !== null && printedBic.slice(0, 8) !== bank.bic.slice(0, 8);
  if (nameDiffers || bicDiffers) {
    const registry = context.revealBank
      ? ` (registry: ${[bank.name, bank.bic].filter(Boolean).join(', ')})`
      : '';
    const evidence = [fields.bankName, fields.bic]
      .filter((found) => found !== null)
      .map((found) => at(found));
    findings.add(
      'IBAN_BANK_MISMATCH',
      `The printed ${nameDiffers ? 'bank name' : 'BIC'} differs from the registry bank of IBAN ${iban}${registry}`,
      evidence,
    );
  } else if (printedName !== null || printedBic !== null) {
    findings.add('IBAN_MATCHES_REGISTRY', `IBAN ${iban} belongs to the bank the statement names`);
  }
}

function checkRoutingNumberField(
  routingNumber: NonNullable<StatementFields['routingNumber']>,
  findings: Findings,
): RoutingVerdict {
  const verdict = checkRoutingNumber(routingNumber.value);
  findings.ran('routing_number', verdict.valid);
  if (verdict.valid)
    findings.add('ROUTING_NUMBER_VALID', `Routing number ${verdict.input} passes the ABA checks`);
  else
    findings.add(
      'ROUTING_NUMBER_INVALID',
      `Routing number ${verdict.input} is invalid: ${verdict.error ?? 'invalid'}`,
      [at(routingNumber)],
    );
  return verdict;
}

function checkExpectedBank(
  fields: StatementFields,
  checked: readonly IbanFinding[],
  context: CheckContext,
  findings: Findings,
): void {
  const { expectedBank, expectedBankSlug } = context;
  if (expectedBank === null && expectedBankSlug === null) return;
  const names = [fields.bankName?.value, ...checked.map((entry) => entry.bank?.name)].filter(
    (name): name is string => typeof name === 'string',
  );
  const matches = (name: string) =>
    (expectedBank === null || bankNamesAgree(expectedBank, name)) &&
    (expectedBankSlug === null ||
      slugOf(name).includes(slugOf(expectedBankSlug)) ||
      slugOf(expectedBankSlug).includes(slugOf(name)));
  const wanted = [expectedBank, expectedBankSlug].filter(Boolean).join(' / ');
  if (names.some(matches))
    findings.add('EXPECTED_BANK_MATCH', `The statement is from the expected bank (${wanted})`);
  else
    findings.add(
      'EXPECTED_BANK_MISMATCH',
      `The statement does not name the expected bank (${wanted})`,
      fields.bankName === null ? [] : [at(fields.bankName)],
    );
}

/** A statement names an account (IBAN, or an account number) and shows money moving (balances or transactions). */
export function looksLikeStatement(fields: StatementFields): boolean {
  const account = fields.ibans.length > 0 || fields.accountNumber !== null;
  const money =
    fields.openingBalance !== null ||
    fields.closingBalance !== null ||
    fields.transactions.length > 0;
  return account && money && (fields.statementWording || fields.transactions.length > 0);
}

export interface CheckOutcome {
  readonly signals: readonly Signal[];
  readonly checks: readonly CheckStatus[];
  readonly ibans: readonly IbanFinding[];
  /** The ABA verdict of the printed routing number; null when none was read. */
  readonly routing: RoutingVerdict | null;
  readonly isBankStatement: boolean;
}

export function runChecks(
  facts: DocumentFacts,
  fields: StatementFields,
  context: CheckContext,
): CheckOutcome {
  const findings = new Findings(context);
  const isBankStatement = looksLikeStatement(fields);
  if (!isBankStatement)
    findings.add(
      'NOT_A_BANK_STATEMENT',
      'No account identifier together with balances or transactions was found',
    );
  checkPdf(facts, context, findings);
  checkImage(facts, findings);
  checkBalances(fields, findings);
  checkRows(fields.transactions, findings);
  checkPeriod(fields, context, findings);
  const { ibans, routing } = checkIdentifiers(fields, context, findings);
  return {
    signals: findings.signals(),
    checks: findings.checks(),
    ibans,
    routing,
    isBankStatement,
  };
}
