import { buildProfileRecord, type ProfileRecord } from '../../domain/profiles/engine.js';
import { loadFaker } from '../../domain/profiles/faker-loader.js';
import { scoreProfile, type QualityScore } from '../../domain/profiles/quality.js';
import { rowRng, type Rng } from '../../domain/rng.js';
import type { BankDirectory, BankInfo } from '../../registry/bank-directory.js';
import type { RunContext } from '../framework/op.js';
import { bankContextShape, personalShape, type ProviderInfo } from './shapes.js';
import { hasBankContext, resolveProfileRequest, type ProfileInput } from './request.js';

/** The engine's name and version, and the faker release under it (a test pins it to the installed package). */
export const builtinEngineVersion = '2';
export const fakerVersion = '10.6.0';
export const builtinProvider: ProviderInfo = {
  provider: 'builtin',
  model: `ibanqa-profiles/${builtinEngineVersion} (@faker-js/faker ${fakerVersion})`,
  model_tier: 'builtin',
};

/** What a built-in profile reads: the bank directory and the request key of its rows. */
export type ProfileNeeds = 'bank' | 'requestKey';

/** rowRng stream of the /profile person; bulk rows use the same stream next to their IBAN stream 0. */
export const profileStream = 0x70726f66; // "prof"

/** The reference day of a run: ages and card expiry are computed on the UTC date of the service clock. */
export function referenceDay(context: Pick<RunContext<never>, 'now'>): Date {
  const now = context.now();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function registryBankOf(
  record: ProfileRecord,
  directory: BankDirectory,
): BankInfo | undefined {
  return record.bank?.bank_code == null
    ? undefined
    : directory.bankOf(record.country_code, record.bank.bank_code);
}

export interface DraftProfile {
  readonly input: ProfileInput;
  readonly record: ProfileRecord;
  readonly rng: Rng;
  readonly today: Date;
}

/** The built-in person for a request: country and bank resolved from the registry, then the engine. */
export function draftProfile(input: ProfileInput, context: RunContext<ProfileNeeds>): DraftProfile {
  const rng = rowRng(context.requestKey, 0, profileStream);
  const resolved = resolveProfileRequest(input, rng, context.bank);
  const today = referenceDay(context);
  const record = buildProfileRecord(
    {
      countryCode: resolved.countryCode,
      gender: resolved.gender,
      ageMin: input.age_min,
      ageMax: input.age_max,
      ...(resolved.givenIban === undefined ? {} : { account: resolved.givenIban }),
      ...(resolved.bank === undefined ? {} : { bank: resolved.bank }),
      ...(input.phone_range === undefined ? {} : { phoneRange: input.phone_range }),
    },
    rng,
    { bank: context.bank, today },
  );
  return { input, record, rng, today };
}

export function scoreOf(
  record: ProfileRecord,
  context: RunContext<ProfileNeeds>,
  today: Date,
): QualityScore {
  return scoreProfile(record, {
    registryBank: registryBankOf(record, context.bank),
    national: context.bank,
    today,
  });
}

/** The envelope both endpoints answer with; generations_left is filled in by the service after the debit. */
export function envelopeOf(
  input: ProfileInput,
  record: ProfileRecord,
  quality: QualityScore,
  provider: ProviderInfo,
  context: RunContext<ProfileNeeds>,
) {
  const profile = hasBankContext(input)
    ? bankContextShape(record, quality, provider, context.caller)
    : personalShape(record, quality, provider);
  return { success: true as const, profile, generations_left: null as number | null };
}

/** The /profile answer; faker is loaded on this thread's first profile. */
export async function builtinProfile(input: ProfileInput, context: RunContext<ProfileNeeds>) {
  await loadFaker();
  const draft = draftProfile(input, context);
  return envelopeOf(
    input,
    draft.record,
    scoreOf(draft.record, context, draft.today),
    builtinProvider,
    context,
  );
}
