/**
 * The state a CLI command works on: the data directory's LMDB by default, or the shared database named by
 * --database-url / IBANQA_DATABASE_URL, exactly as `ibanqa serve` chooses. `keys` and `manifest keygen` go
 * through here, so a key created with --database-url works on every node of that database.
 */
import type { KeyInfo } from './accounts/account-store.js';
import { AccountStore } from './accounts/index.js';
import type { CreatedKey } from './accounts/key-records.js';
import { Meter } from './accounts/meter.js';
import type { PlanId } from './accounts/plans.js';
import { loadConfig, type Config, type ConfigOverrides } from './config.js';
import type { Account } from './ports/accounts.js';
import type { Balance } from './ports/credits.js';
import { withSharedState } from './postgres/node-state.js';
import { fileKeyRing, type KeyRingStorage } from './signing/key-ring.js';

/** The shared database option, on `serve` and on every command that touches state. */
export const databaseUrlOption = [
  '--database-url <url>',
  'PostgreSQL URL of the shared state (IBANQA_DATABASE_URL); without it, LMDB in the data directory',
] as const;

/** The options every state-touching command takes. */
export interface StateOptions {
  readonly dataDir?: string;
  readonly databaseUrl?: string;
}

/** What `ibanqa keys` does, on either store. */
export interface KeyAdmin {
  createKey(plan: PlanId, now: Date, label?: string): Promise<CreatedKey>;
  listKeys(): Promise<KeyInfo[]>;
  revokeKey(id: string, now: Date): Promise<boolean>;
  balance(account: Account, now: Date): Promise<Balance>;
}

export interface CliState {
  readonly config: Config;
  readonly keys: KeyAdmin;
  readonly keyRing: KeyRingStorage;
  /** Where the state lives, for messages: the data directory or the database (password redacted). */
  readonly where: string;
}

export function configOf(options: StateOptions): Config {
  const overrides: ConfigOverrides = {
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
  };
  return loadConfig(process.env, overrides);
}

/** Opens the chosen state, runs `use`, and closes it (writes committed) whatever `use` did. */
export async function withState<T>(
  options: StateOptions,
  use: (state: CliState) => Promise<T> | T,
): Promise<T> {
  const config = configOf(options);
  if (config.databaseUrl !== null) {
    const { redactedUrl } = await import('./postgres/pool.js');
    const where = redactedUrl(config.databaseUrl);
    return withSharedState(config.databaseUrl, async ({ ports, keyRing }) =>
      use({
        config,
        where,
        keyRing,
        keys: {
          createKey: (plan, now, label) => ports.keys.createKey(plan, now, label),
          listKeys: () => ports.keys.listKeys(),
          revokeKey: (id, now) => ports.keys.revokeKey(id, now),
          balance: (account, now) => ports.ledger.balance(account, now),
        },
      }),
    );
  }
  const store = AccountStore.open(config.dataDir, config.ledgerDurability);
  try {
    const meter = Meter.open(store);
    return await use({
      config,
      where: config.dataDir,
      keyRing: fileKeyRing(config.dataDir),
      keys: {
        createKey: async (plan, now, label) => store.createKey(plan, now, label),
        listKeys: async () => store.listKeys(),
        revokeKey: async (id, now) => store.revokeKey(id, now),
        balance: async (account, now) => meter.balance(account, now),
      },
    });
  } finally {
    await store.close();
  }
}
