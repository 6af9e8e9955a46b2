import { loadFaker } from '../../domain/profiles/faker-loader.js';
import type { RunContext } from '../framework/op.js';
import { builtinProfile, draftProfile, envelopeOf, scoreOf, type ProfileNeeds } from './builtin.js';
import { defineProfileOp } from './declare.js';
import { repairExternal, promptOf } from './external/repair.js';
import type { ProfileInput } from './request.js';

/** With an external provider: the built-in draft, the model's person over it (repaired or refused), one score. */
async function externalProfile(
  input: ProfileInput,
  context: RunContext<ProfileNeeds | 'profileProvider'>,
) {
  const provider = context.profileProvider;
  if (provider === null) return builtinProfile(input, context);
  await loadFaker();
  const draft = draftProfile(input, context);
  const answer = await provider.complete(promptOf(draft));
  const { record, repaired } = repairExternal(answer as Record<string, unknown>, draft);
  const envelope = envelopeOf(
    input,
    record,
    scoreOf(record, context, draft.today),
    { provider: provider.name, model: provider.model, model_tier: 'external' },
    context,
  );
  return { ...envelope, profile: { ...envelope.profile, repaired_fields: repaired } };
}

export const profileAi = defineProfileOp({
  name: 'profile.ai',
  needs: ['requestKey', 'bank', 'profileProvider'] as const,
  // An external provider is network I/O with a circuit breaker held by the main thread.
  runsOn: 'main',
  summary: 'Synthetic QA profile from the configured provider (built-in by default)',
  description:
    'Same request, envelope and cost as /profile. Without IBANQA_AI_PROFILE_URL the built-in engine answers ' +
    '(provider "builtin"). With it, an OpenAI-compatible chat-completions model writes the person (names, gender, ' +
    'birth date, street, postal code, city, occupation) over the built-in draft (IBAN, bank, phone, card); the answer ' +
    'is checked against the same schema, missing or out-of-range fields are repaired from the draft (repaired_fields), ' +
    'an answer without names or with the wrong gender is refused, and the result is scored by the same quality ' +
    'function. Provider unreachable, slower than IBANQA_AI_PROFILE_TIMEOUT_MS (default 8 s), answering garbage, or ' +
    'circuit open after 3 consecutive failures (30 s): 503 unavailable, nothing debited. External answers are not ' +
    'reproducible even with a seed.',
  path: '/ai-profile',
  rpc: 'AiProfile',
  run: externalProfile,
});
