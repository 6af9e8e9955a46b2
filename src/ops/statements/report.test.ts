import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentFacts } from '../../domain/statements/document.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RoutingDirectory, RoutingTarget } from '../../registry/routing-directory.js';
import { buildReport } from './report.js';

const noBanks = { bankOf: () => undefined } as unknown as BankDirectory;

function facts(texts: readonly string[]): DocumentFacts {
  return {
    kind: 'pdf',
    pages: 1,
    lines: texts.map((text) => ({ page: 1, text, spans: [{ text, font: 'f' }] })),
    pdf: null,
    image: null,
  };
}

function directory(listed: Record<string, string>): RoutingDirectory {
  const target = (routingNumber: string): RoutingTarget => ({
    target_id: 'rt_test',
    routing_number: routingNumber,
    name: listed[routingNumber] ?? null,
    city: null,
    state: null,
    status: null,
    source_id: 'fedach',
    source_sha256: '0'.repeat(64),
    source_date: null,
  });
  return {
    sources: () => [{ source_id: 'fedach', snapshot_date: null, source_sha256: '0'.repeat(64) }],
    byRoutingNumber: (routingNumber) => (routingNumber in listed ? [target(routingNumber)] : []),
    search: () => ({ results: [], total: 0 }),
    targetById: () => undefined,
  };
}

const context = {
  now: new Date('2026-01-01T00:00:00Z'),
  bank: noBanks,
  caller: { keyId: 'k', plan: 'pro' as const, paid: true },
  expectedBank: null,
  expectedBankSlug: null,
};

test('US routing numbers: ABA verdict, directory presence when a directory is loaded, account numbers format only', () => {
  // 800000006: 3-7-1 sum 8*3 + 6*1 = 30, a multiple of 10 (prefix 80: traveler's cheques, unlikely to be any bank's number).
  const lines = [
    'Routing number: 800000006',
    'Account number: 000123456789',
    'Opening balance $10.00',
  ];
  const without = buildReport(facts(lines), context).domestic_account_checks;
  assert.equal(without[0]?.valid, true);
  assert.equal(without[0]?.directory, 'not_loaded');
  assert.deepEqual(without[1], {
    type: 'account_number',
    value_masked: '********6789',
    format_valid: true,
    check: 'format_only',
  });
  const listed = buildReport(facts(lines), {
    ...context,
    routing: directory({ '800000006': 'SYNTHETIC LISTED BANK' }),
  }).domestic_account_checks;
  assert.equal(listed[0]?.directory, 'found');
  assert.deepEqual(listed[0]?.directory_names, ['SYNTHETIC LISTED BANK']);
  const unlisted = buildReport(facts(lines), {
    ...context,
    routing: directory({}),
  }).domestic_account_checks;
  assert.equal(unlisted[0]?.directory, 'not_found');
  const invalid = buildReport(facts(['Routing number: 800000007']), context);
  assert.equal(invalid.domestic_account_checks[0]?.error, 'invalid_checksum');
  assert.ok(invalid.risk_signals.some((signal) => signal.code === 'ROUTING_NUMBER_INVALID'));
});

test('checks that cannot run say why, and an OCR misreading is no mismatch', () => {
  const lines = [
    'IBAN NL91 ABNA 0417 1643 00',
    'Periode 01-03-2024 t/m 31-03-2024',
    'Beginsaldo 1.000,00',
    '04-03-2024 Salaris 2399.27 3.399,27',
    '05-03-2024 Huur -800,00 2.599,27',
    'Eindsaldo 2.599,27',
  ];
  const report = buildReport(facts(lines), context);
  const status = (check: string) => report.checks.find((entry) => entry.check === check);
  assert.equal(status('balance_arithmetic')?.status, 'not_checked');
  assert.match(status('balance_arithmetic')?.reason ?? '', /could not be read/);
  assert.equal(status('running_balances')?.status, 'passed');
  assert.equal(status('routing_number')?.status, 'not_checked');
  assert.deepEqual(report.inconsistencies, []);
  const off = buildReport(
    facts(lines.map((line) => line.replace('2399.27', '2.399,27')).concat('Eindsaldo 3.599,27')),
    context,
  );
  assert.equal(off.checks.find((entry) => entry.check === 'balance_arithmetic')?.status, 'failed');
  assert.ok(off.inconsistencies.some((signal) => signal.code === 'BALANCE_MISMATCH'));
});
