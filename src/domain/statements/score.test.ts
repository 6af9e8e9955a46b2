import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bankNamesAgree } from './checks.js';
import { riskLevelOf, scoreOf } from './score.js';
import type { Signal } from './signals.js';

const finding = (severity: Signal['severity']): Signal => ({
  code: 'BALANCE_MISMATCH',
  severity,
  message: '',
  evidence: [],
  occurrences: 1,
});

test('score bands: one high finding is medium risk, two are high', () => {
  assert.equal(scoreOf([]), 100);
  assert.equal(riskLevelOf(scoreOf([])), 'low');
  assert.equal(riskLevelOf(scoreOf([finding('medium')])), 'low');
  assert.equal(riskLevelOf(scoreOf([finding('high')])), 'medium');
  assert.equal(riskLevelOf(scoreOf([finding('high'), finding('high')])), 'high');
  assert.equal(scoreOf([finding('high'), finding('high'), finding('high')]), 0);
});

test('bank names agree on their distinctive word, ignoring case, accents and legal forms', () => {
  assert.ok(bankNamesAgree('Commerzbank', 'COMMERZBANK AG'));
  assert.ok(bankNamesAgree('Deutsche Kreditbank Berlin', 'Deutsche Kreditbank AG'));
  assert.ok(bankNamesAgree('Crédit Agricole', 'CREDIT AGRICOLE SA'));
  assert.ok(!bankNamesAgree('Commerzbank', 'Deutsche Kreditbank Berlin'));
});
