/**
 * `ibanqa registry import | sources | diff | sync`: the operator's side of the bank registry. Every
 * command works on `<data-dir>/registry`; an import is one LMDB transaction, so a malformed file (reported
 * with its line number) leaves the previous snapshot untouched, also while the service is running.
 */
import cliProgress from 'cli-progress';
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from './config.js';
import { AppError } from './errors.js';
import { changeCountsByField, diffSnapshots } from './registry/diff.js';
import { importPath } from './registry/store/import-file.js';
import { ensureEmbeddedDefault } from './registry/store/embedded.js';
import { migrateDatabase } from './postgres/migrate.js';
import { publishedWrites } from './registry/publish/writes.js';
import { RegistryStore } from './registry/store/registry-store.js';
import type { ImportSummary } from './registry/store/types.js';
import { registrySources, sourceIds } from './registry/store/sources.js';
import { envNameOf, syncSources, syncUrls } from './registry/store/sync.js';

/** Below this many records an import is over before a bar could say anything. */
const PROGRESS_MIN_ROWS = 5_000;
/** Changed records `registry diff` lists by default. */
const DIFF_LIST_DEFAULT = 20;

type Write = (line: string) => void;
const out: Write = (line) => process.stdout.write(`${line}\n`);

/**
 * Write commands lay the embedded default down first (as the service's first start would): publisher files then
 * override it. `writes: 'bare'` skips it, for a data directory that studies older publisher files on their own.
 * With a database URL (--database-url, IBANQA_DATABASE_URL) a write command publishes its imports to every node.
 */
function withRegistry<T>(
  dataDir: string | undefined,
  use: (store: RegistryStore) => T | Promise<T>,
  writes: boolean | 'bare' = false,
  databaseUrl?: string,
): Promise<void> {
  const config = loadConfig(process.env, {
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  const store = RegistryStore.openWriter(config.dataDir);
  const note: Write = (line) => process.stderr.write(`ibanqa registry: ${line}\n`);
  return (
    Promise.resolve()
      .then(() => (writes === true ? ensureEmbeddedDefault(store) : []))
      // Publishing needs the publications table: migrated as a node's start would (a no-op once a node ran).
      .then(() =>
        writes !== true || config.databaseUrl === null
          ? undefined
          : migrateDatabase(config.databaseUrl),
      )
      .then(() =>
        writes === false
          ? use(store)
          : publishedWrites(
              store,
              { databaseUrl: config.databaseUrl, bare: writes === 'bare', note },
              () => use(store),
            ),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          process.stderr.write(
            `ibanqa registry: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exitCode = 1;
        },
      )
      .finally(() => store.close())
  );
}

/** A cli-progress bar on stderr for long imports (cli-progress prints nothing when stderr is not a terminal). */
function progressBar(): { onProgress: (done: number, total: number) => void; stop: () => void } {
  let bar: cliProgress.SingleBar | undefined;
  return {
    onProgress(done, total) {
      if (total < PROGRESS_MIN_ROWS) return;
      if (bar === undefined) {
        bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: 'importing [{bar}] {value}/{total} records' },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, 0);
      }
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}

export function summaryLine(summary: ImportSummary): string {
  const { changes, registry } = summary;
  const where = `${summary.source_id} snapshot ${summary.snapshot_id} (${summary.snapshot_date ?? 'undated'})`;
  if (summary.unchanged)
    return `unchanged: ${where} already holds this data; registry version ${registry.version}, fingerprint ${registry.fingerprint}`;
  const diff =
    summary.previous_snapshot_id === null
      ? 'first snapshot of this source (baseline, no change events)'
      : `${changes.added} added, ${changes.removed} removed, ${changes.modified} modified (${summary.events} change events against snapshot ${summary.previous_snapshot_id})`;
  return `imported ${where}: ${summary.row_count} records; ${diff}; registry version ${registry.version}, fingerprint ${registry.fingerprint}`;
}

interface ImportOptions {
  source: string;
  file: string;
  snapshotDate?: string;
  delta?: boolean;
  /** commander's --no-embedded: false skips laying down the embedded default. */
  embedded?: boolean;
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

function runImport(options: ImportOptions): Promise<void> {
  return withRegistry(
    options.dataDir,
    (store) => {
      const progress = progressBar();
      try {
        const summary = importPath(store, options.source, options.file, {
          ...(options.snapshotDate === undefined ? {} : { snapshotDate: options.snapshotDate }),
          delta: options.delta === true,
          onProgress: progress.onProgress,
        });
        progress.stop();
        out(options.json ? JSON.stringify(summary) : summaryLine(summary));
      } finally {
        progress.stop();
      }
    },
    options.embedded === false ? 'bare' : true,
    options.databaseUrl,
  );
}

function runSources(options: { dataDir?: string; json?: boolean }): Promise<void> {
  return withRegistry(options.dataDir, (store) => {
    const sources = store.sources();
    if (options.json) return out(JSON.stringify({ registry: store.identity(), sources }));
    const identity = store.identity();
    out(
      `registry version ${identity.version}, fingerprint ${identity.fingerprint}, last import ${identity.generated_at ?? 'never'}`,
    );
    for (const source of sources) {
      const current = store.snapshot(source.current_snapshot_id);
      out(
        `${source.source_id.padEnd(18)} ${String(current?.row_count ?? 0).padStart(7)} records  snapshot ${source.current_snapshot_id} (${current?.snapshot_date ?? 'undated'})  ${source.snapshot_ids.length} snapshot(s)  ${source.origin}${source.version === null ? '' : ` ${source.version}`}`,
      );
      out(`${''.padEnd(18)} ${source.publisher}; licence: ${source.license}`);
    }
  });
}

/** A snapshot by id, or by publisher date within the source. */
function snapshotRef(store: RegistryStore, sourceId: string, ref: string): number {
  const snapshots = store.snapshotsOf(sourceId);
  const found = /^\d+$/.test(ref)
    ? snapshots.find((s) => s.snapshot_id === Number(ref))
    : snapshots.find((s) => s.snapshot_date === ref);
  if (found === undefined)
    throw new AppError(
      'invalid_argument',
      `${sourceId} has no snapshot "${ref}" (snapshots: ${snapshots.map((s) => `${s.snapshot_id} ${s.snapshot_date ?? 'undated'}`).join(', ')})`,
    );
  return found.snapshot_id;
}

interface DiffOptions {
  source: string;
  from?: string;
  to?: string;
  limit: number;
  dataDir?: string;
  json?: boolean;
}

function runDiff(options: DiffOptions): Promise<void> {
  return withRegistry(options.dataDir, (store) => {
    const source = store.source(options.source);
    if (source === undefined)
      throw new AppError('invalid_argument', `no source "${options.source}" in this registry`);
    const to =
      options.to === undefined
        ? source.current_snapshot_id
        : snapshotRef(store, options.source, options.to);
    const from =
      options.from === undefined
        ? store.snapshot(to)?.previous_snapshot_id
        : snapshotRef(store, options.source, options.from);
    if (from === null || from === undefined)
      throw new AppError(
        'invalid_argument',
        `snapshot ${to} is the first of ${options.source}: pass --from`,
      );
    const diff = diffSnapshots(store.snapshotAsParsed(from), store.snapshotAsParsed(to));
    const byField = Object.fromEntries(changeCountsByField(diff));
    if (options.json) {
      return out(
        JSON.stringify({
          source_id: options.source,
          from,
          to,
          added: diff.added.length,
          removed: diff.removed.length,
          modified: diff.modified.length,
          fields: byField,
        }),
      );
    }
    out(
      `${options.source}: snapshot ${from} (${diff.from_date ?? 'undated'}) -> ${to} (${diff.to_date ?? 'undated'}): ${diff.added.length} added, ${diff.removed.length} removed, ${diff.modified.length} modified`,
    );
    out(
      `fields changed: ${
        Object.entries(byField)
          .map(([field, count]) => `${field} ${count}`)
          .join(', ') || 'none'
      }`,
    );
    for (const record of diff.added.slice(0, options.limit))
      out(`+ ${record.record_key} ${record.legal_name ?? ''}`);
    for (const record of diff.removed.slice(0, options.limit))
      out(`- ${record.record_key} ${record.legal_name ?? ''}`);
    for (const record of diff.modified.slice(0, options.limit))
      out(
        `~ ${record.key} ${record.changes.map((c) => `${c.field}: ${c.before ?? '∅'} -> ${c.after ?? '∅'}`).join('; ')}`,
      );
  });
}

interface SyncOptions {
  source?: string[];
  url?: string[];
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

function runSync(options: SyncOptions): Promise<void> {
  return withRegistry(
    options.dataDir,
    async (store) => {
      const urls = syncUrls(process.env, options.url ?? [], options.source);
      const results = await syncSources(store, urls);
      for (const result of results) {
        if (options.json) out(JSON.stringify(result));
        else
          out(
            result.ok
              ? `${result.source_id}: ${summaryLine(result.summary)}`
              : `${result.source_id}: FAILED (${result.url}): ${result.error}`,
          );
      }
      if (results.some((result) => !result.ok)) process.exitCode = 1;
    },
    true,
    options.databaseUrl,
  );
}

function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new InvalidArgumentError('a non-negative integer');
  return parsed;
}

const databaseUrlFlag = '--database-url <url>';
const databaseUrlHelp =
  'PostgreSQL database of a cluster (IBANQA_DATABASE_URL): take its published imports first, then publish this one to every node';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerRegistryCommands(program: Command): void {
  const registry = program
    .command('registry')
    .description(
      'The bank registry (LMDB under <data-dir>/registry): import publisher files, list sources, diff snapshots, sync',
    );
  registerImportCommand(registry);
  registerSourcesCommand(registry);
  registerDiffCommand(registry);
  registerSyncCommand(registry);
}

function registerImportCommand(registry: Command): void {
  registry
    .command('import')
    .description(
      'Import one publisher file as a new snapshot of its source (atomic; change events against the previous snapshot)',
    )
    .requiredOption('--source <id>', sourceIds.join(', '))
    .requiredOption('--file <path>', 'the file as published')
    .option(
      '--snapshot-date <YYYY-MM-DD>',
      "the publisher's date for the data; required where neither the file nor the publisher's file name carries one (see each source's date below)",
    )
    .option('--delta', 'the file holds only new or changed records (GLEIF delta publications)')
    .option(
      '--no-embedded',
      'do not lay down the embedded default first (a data directory for studying older publisher files, which the embedded tables would otherwise outdate)',
    )
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .option(databaseUrlFlag, databaseUrlHelp)
    .option('--json', 'print the import summary as JSON')
    .addHelpText('after', importSourcesHelp())
    .action((options: ImportOptions) => runImport(options));
}

function registerSourcesCommand(registry: Command): void {
  registry
    .command('sources')
    .description('List sources with their current snapshot, licence and record count')
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .option('--json', 'print JSON')
    .action((options: { dataDir?: string; json?: boolean }) => runSources(options));
}

function registerDiffCommand(registry: Command): void {
  registry
    .command('diff')
    .description(
      'Compare two snapshots of a source (default: the current one against its predecessor)',
    )
    .requiredOption('--source <id>', 'a source in this registry')
    .option('--from <snapshot>', 'snapshot id or publisher date (default: the predecessor of --to)')
    .option('--to <snapshot>', 'snapshot id or publisher date (default: current)')
    .option('--limit <n>', 'changed records to list per kind', positiveInt, DIFF_LIST_DEFAULT)
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .option('--json', 'print the counts as JSON')
    .action((options: DiffOptions) => runDiff(options));
}

function registerSyncCommand(registry: Command): void {
  registry
    .command('sync')
    .description(
      `Download the publishers' current files and import them (URLs: defaults, IBANQA_SYNC_URL_<SOURCE>, or --url)`,
    )
    .option('--source <id>', `only this source (repeatable): ${sourceIds.join(', ')}`, collect)
    .option(
      '--url <source=url>',
      'download URL of a source (repeatable; overrides the environment)',
      collect,
    )
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .option(databaseUrlFlag, databaseUrlHelp)
    .option('--json', 'print one JSON line per source')
    .addHelpText('after', syncSourcesHelp())
    .action((options: SyncOptions) => runSync(options));
}

/** The source table as `registry import --help` lists it: id, publisher and title, licence, snapshot date. */
export function importSourcesHelp(): string {
  const lines = registrySources.map(({ info, dateFrom }) =>
    [
      `  ${info.source_id}: ${info.publisher}, ${info.title}`,
      `    licence: ${info.license}`,
      `    snapshot date: ${dateFrom}`,
    ].join('\n'),
  );
  return `\nSources:\n${lines.join('\n')}`;
}

/** Where `registry sync` downloads each source from by default, or the variable that must name it. */
export function syncSourcesHelp(): string {
  const lines = registrySources.map(
    ({ info, syncUrl }) =>
      `  ${info.source_id}: ${syncUrl ?? `no stable address; set ${envNameOf(info.source_id)} or --url`}`,
  );
  return `\nDownload addresses:\n${lines.join('\n')}`;
}
