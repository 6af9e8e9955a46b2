import { signalCatalogue, severityWeight, type Signal } from './signals.js';

export type RiskLevel = 'low' | 'medium' | 'high';

/** 100 minus the weight of each finding's severity, per code; DocuClipper-like bands (domain notes §6). */
export function scoreOf(findings: readonly Signal[]): number {
  const lost = findings.reduce((sum, signal) => sum + severityWeight[signal.severity], 0);
  return Math.max(0, Math.min(100, 100 - lost));
}

export function riskLevelOf(score: number): RiskLevel {
  return score >= 80 ? 'low' : score >= 50 ? 'medium' : 'high';
}

export interface SortedSignals {
  readonly positive: Signal[];
  readonly risk: Signal[];
  readonly inconsistencies: Signal[];
}

export function sortSignals(signals: readonly Signal[]): SortedSignals {
  const sorted: SortedSignals = { positive: [], risk: [], inconsistencies: [] };
  for (const signal of signals) {
    const kind = signalCatalogue[signal.code].kind;
    (kind === 'positive'
      ? sorted.positive
      : kind === 'risk'
        ? sorted.risk
        : sorted.inconsistencies
    ).push(signal);
  }
  return sorted;
}

export function recommendationsOf(findings: readonly Signal[]): string[] {
  const texts = findings
    .map((signal) => (signalCatalogue[signal.code] as { recommendation?: string }).recommendation)
    .filter((text): text is string => text !== undefined);
  return [...new Set(texts)];
}

export function summaryOf(
  score: number,
  level: RiskLevel,
  isStatement: boolean,
  findings: readonly Signal[],
): string {
  const what = isStatement ? 'Bank statement' : 'The document does not look like a bank statement';
  const found =
    findings.length === 0
      ? 'no risk signals or inconsistencies found'
      : `${findings.length} finding(s): ${findings.map((signal) => signal.code).join(', ')}`;
  return `${what}; score ${score}/100, ${level} risk; ${found}. These are computed checks: evidence, not a verdict.`;
}
