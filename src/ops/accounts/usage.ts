import { Type } from '@sinclair/typebox';
import { creditKinds, type CreditKind } from '../../domain/plans/plans.js';
import type { KeyUsage } from '../../ports/usage.js';
import { AppError } from '../../errors.js';
import { defineOp, type RunContext } from '../framework/op.js';
import { nullableString, strictObject } from '../framework/schemas.js';
import { usageReport } from './usage-report.js';

const nullableCount = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const creditBalanceSchema = Type.Object({
  allowance: nullableCount('Credits of this kind per period; null: no cap (unlimited plan)'),
  used: Type.Integer({ minimum: 0, description: 'Committed in the current period' }),
  reserved: Type.Integer({
    minimum: 0,
    description:
      'Held and not yet spent (counted against remaining): by requests still running, and by the credit leases REST front threads and cluster nodes take ahead of their requests (given back when idle, on shutdown, or after the lease TTL when a node dies)',
  }),
  remaining: nullableCount(
    'allowance - used - reserved; 0 once a 24h Pass has expired; null: no cap',
  ),
  period_end: nullableString(
    'When this balance ends: the next calendar month (UTC) for monthly plans, the expiry of a 24h Pass; null for Free (a lifetime allowance)',
  ),
});

export const usageOutput = Type.Object({
  success: Type.Literal(true),
  key_id: Type.String(),
  plan: Type.String({
    description: 'Plan id (free, pass24h, starter, pro, business, enterprise, unlimited)',
  }),
  plan_name: Type.String(),
  period: Type.Object({
    kind: Type.Union([
      Type.Literal('lifetime'),
      Type.Literal('pass'),
      Type.Literal('calendar_month'),
    ]),
    start: Type.String({
      description: 'Start of the usage bucket (key creation for Free and the 24h Pass)',
    }),
    end: nullableString('End of the period; null for Free'),
  }),
  expires_at: nullableString('24h Pass only: after this instant the key is refused with 402'),
  credits: Type.Object(
    Object.fromEntries(creditKinds.map((kind) => [kind, creditBalanceSchema])) as Record<
      CreditKind,
      typeof creditBalanceSchema
    >,
  ),
});

async function usageOfCaller(context: RunContext<'usage'>): Promise<KeyUsage> {
  const keyId = context.caller.keyId;
  const usage = keyId === null ? null : await context.usage.usageOf(keyId);
  if (usage === null) throw new AppError('unauthenticated', 'Invalid API key');
  return usage;
}

export const accountUsage = defineOp({
  name: 'account.usage',
  needs: ['usage'] as const,
  // The ledger lives on the main thread.
  runsOn: 'main',
  tag: 'Account',
  summary: 'Balances of the calling key, per credit kind',
  description:
    'For each credit kind (api_calls, profiles, bic_reveals, exports, bank_metadata, statements): the allowance of the ' +
    'plan, what the current period used, what running requests hold, what remains, and when the period ends. Free: a ' +
    'lifetime allowance (period_end null); 24h Pass: until it expires; monthly plans: until the first of the next month ' +
    '(UTC). Costs nothing. Every keyed REST answer also carries X-RateLimit-Limit, X-RateLimit-Remaining and ' +
    'X-RateLimit-Reset for api_calls.',
  http: { method: 'GET', path: '/usage', inputFrom: 'query' },
  grpc: { method: 'GetUsage', wrap: 'object' },
  access: 'key',
  input: strictObject({}),
  output: usageOutput,
  cost: () => ({}),
  rows: () => 1,
  run: async (_input, context) => usageReport(await usageOfCaller(context)),
});
