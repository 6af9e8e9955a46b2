/**
 * The validate answer's row pass, before and after, in one process: the base commit's code is imported from a
 * temporary git worktree of it (this checkout's node_modules linked in) beside this checkout's, and the two run in
 * alternating rounds over the same bodies and the same bank directory, so the shared VM's drift falls on both.
 * Timed, in CPU µs (process.cpuUsage) per 100-IBAN answer, JSON.parse of the body included:
 *   - the general path at the base (validateList, row objects, json-bytes),
 *   - the written answer at the base (verdicts, string-keyed bank lookups, tails),
 *   - the written answer here (the fused pass: char-code scan, bank by numeric key, tails),
 * and, as the gRPC ValidateStream op computes it, one 1,000-IBAN batch at the base and here (it shares the engine's
 * tables with the fused pass, so it must not get slower). Every body's answer is checked byte for byte against the
 * base's general path before the rounds. Writes the `validate-pass` section of bench/RESULTS.md.
 *
 *   node --import tsx bench/validate-pass.ts [base-rev]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallerView } from '../src/contract/op.js';
import { countryFormats, generateIban, type CountryFormat } from '../src/domain/iban/index.js';
import { requestKeyOf, rngBelow, rowRng } from '../src/domain/rng.js';
import { ibanValidateStream } from '../src/ops/iban/streams.js';
import { validateJsonAnswer } from '../src/ops/iban/validate.js';
import type { BankDirectory } from '../src/registry/bank-directory.js';
import { repoRoot } from './lib/child.js';
import { openBenchDirectory } from './lib/directory.js';
import { dec, table } from './lib/format.js';
import { machineFacts } from './lib/machine.js';
import { resultsMdPath } from './lib/report.js';
import { median, round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

/** The last commit before the fused pass: its written answer verdicts every row and looks banks up by string. */
const defaultBase = '633f9fd';

export const passSettings = {
  bodies: 100,
  ibansPerBody: 100,
  /** Rounds after one warm-up round (V8 compiles the hot paths in it; it is not counted). */
  rounds: 9,
  answersPerRound: 2_000,
  batchesPerRound: 200,
  /** A gRPC ValidateStream batch: the bodies' IBANs, this many at a time. */
  ibansPerBatch: 1_000,
} as const;

/** The unlimited demo key's view: paid, so every matched row carries bank data. */
const paidCaller: CallerView = { keyId: 'key_bench', plan: 'unlimited', paid: true };

const parts = ['general', 'writtenBefore', 'fused', 'streamBefore', 'streamAfter'] as const;
type Part = (typeof parts)[number];

const partNames: Record<Part, string> = {
  general: 'general path at the base: JSON.parse, validateList, json-bytes (µs per 100-row answer)',
  writtenBefore:
    'written answer at the base: JSON.parse, verdicts, string-keyed bank lookups, tails (µs per 100-row answer)',
  fused:
    'written answer here: JSON.parse, fused pass (char-code scan, bank by numeric key), tails (µs per 100-row answer)',
  streamBefore: 'ValidateStream op at the base (µs per 1,000-IBAN batch)',
  streamAfter: 'ValidateStream op here (µs per 1,000-IBAN batch)',
};

type ValidateModule = typeof import('../src/ops/iban/validate.js');
type StreamsModule = typeof import('../src/ops/iban/streams.js');
type JsonBytesModule = typeof import('../src/render/json-bytes.js');

interface Base {
  readonly validate: ValidateModule;
  readonly streams: StreamsModule;
  readonly jsonBytes: JsonBytesModule;
  readonly commit: string;
}

function git(...args: string[]): string {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

async function importBase(dir: string, rev: string): Promise<Base> {
  const load = (path: string) => import(pathToFileURL(join(dir, path)).href);
  return {
    validate: (await load('src/ops/iban/validate.ts')) as ValidateModule,
    streams: (await load('src/ops/iban/streams.ts')) as StreamsModule,
    jsonBytes: (await load('src/render/json-bytes.ts')) as JsonBytesModule,
    commit: git('rev-parse', '--short', rev),
  };
}

/**
 * Bodies as a QA harness sends them (as bench/rest-load.ts's, generated here in process): per country in turn,
 * IBANs with the registry's real bank codes where it knows the country's banks; body j holds row j of each
 * country's list, so every body mixes countries.
 */
function generatedLists(directory: BankDirectory): string[][] {
  const { bodies, ibansPerBody } = passSettings;
  const columns: string[][] = [];
  for (let column = 0; column < ibansPerBody; column++) {
    const format = countryFormats[column % countryFormats.length] as CountryFormat;
    const banks = directory.generationBanksOf(format.code);
    const key = requestKeyOf(`validate-pass-${column}`, format.code);
    const list: string[] = [];
    for (let row = 0; row < bodies; row++) {
      const rng = rowRng(key, row);
      const bank = banks.length === 0 ? undefined : banks[rngBelow(rng, banks.length)];
      const options = bank === undefined ? {} : { bankCode: bank.bankCode };
      list.push(generateIban(format, rng, options, directory).iban);
    }
    columns.push(list);
  }
  return Array.from({ length: bodies }, (_, body) => columns.map((list) => list[body] as string));
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Here and at the base, every body's answer must be the base's general path bytes, or the times mean nothing. */
function assertSameBytes(lists: readonly string[][], directory: BankDirectory, base: Base): void {
  lists.forEach((list, index) => {
    const general = Buffer.from(
      base.jsonBytes.outputJsonView(base.validate.validateList(list, paidCaller, directory)),
    );
    const before = Buffer.from(
      base.validate.validateJsonAnswer(list, paidCaller, directory).jsonView(),
    );
    const after = Buffer.from(validateJsonAnswer(list, paidCaller, directory).jsonView());
    if (!general.equals(before) || !general.equals(after))
      throw new Error(`body ${index}: a written answer differs from the general path's bytes`);
  });
}

export interface PassResult {
  readonly settings: typeof passSettings;
  readonly baseCommit: string;
  readonly loadAverageAtStart: readonly number[];
  readonly loadAverageAtEnd: readonly number[];
  /** Per part, CPU µs per answer (or batch) of each counted round. */
  readonly rounds: Record<Part, number[]>;
}

/** The stream op runs synchronously (its run returns the batch's verdicts, never a promise). */
function validCount(output: unknown): number {
  return (output as { valid_count: number }).valid_count;
}

function measure(
  lists: readonly string[][],
  directory: BankDirectory,
  base: Base,
): Record<Part, number[]> {
  const bodies = lists.map((ibans) => JSON.stringify({ ibans }));
  const all = lists.flat();
  const batches: { ibans: string[] }[] = [];
  for (let start = 0; start < all.length; start += passSettings.ibansPerBatch)
    batches.push({ ibans: all.slice(start, start + passSettings.ibansPerBatch) });
  const context = { bank: directory } as unknown as Parameters<typeof ibanValidateStream.run>[1];
  let sink = 0;
  const listOf = (index: number) =>
    (JSON.parse(bodies[index % bodies.length] as string) as { ibans: string[] }).ibans;
  const batchOf = (index: number) => batches[index % batches.length] as { ibans: string[] };
  const runs: Record<Part, (index: number) => void> = {
    general: (index) => {
      const rows = base.validate.validateList(listOf(index), paidCaller, directory);
      sink += base.jsonBytes.outputJsonView(rows).length;
    },
    writtenBefore: (index) =>
      (sink += base.validate
        .validateJsonAnswer(listOf(index), paidCaller, directory)
        .jsonView().length),
    fused: (index) =>
      (sink += validateJsonAnswer(listOf(index), paidCaller, directory).jsonView().length),
    streamBefore: (index) =>
      (sink += validCount(base.streams.ibanValidateStream.run(batchOf(index), context))),
    streamAfter: (index) => (sink += validCount(ibanValidateStream.run(batchOf(index), context))),
  };
  const figures = Object.fromEntries(parts.map((part) => [part, [] as number[]])) as Record<
    Part,
    number[]
  >;
  for (let round = 0; round <= passSettings.rounds; round++) {
    // Every other round in reverse order, so no part always runs right after the same one.
    const order = round % 2 === 0 ? parts : [...parts].reverse();
    for (const part of order) {
      const times = part.startsWith('stream')
        ? passSettings.batchesPerRound
        : passSettings.answersPerRound;
      const started = cpuMicros();
      for (let index = 0; index < times; index++) runs[part](index);
      if (round > 0) figures[part].push((cpuMicros() - started) / times);
    }
  }
  if (sink === 0) throw new Error('nothing was computed');
  return figures;
}

export async function runValidatePass(
  rev: string,
  log: (line: string) => void = console.log,
): Promise<PassResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-validate-pass-'));
  git('worktree', 'add', '--detach', dir, rev);
  const bench = await openBenchDirectory();
  try {
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
    const base = await importBase(dir, rev);
    const lists = generatedLists(bench.directory);
    assertSameBytes(lists, bench.directory, base);
    log(`validate-pass: ${lists.length} bodies, byte-identical here and at ${base.commit}`);
    const loadAverageAtStart = loadavg().map((value) => round(value, 2));
    const rounds = measure(lists, bench.directory, base);
    const loadAverageAtEnd = loadavg().map((value) => round(value, 2));
    return {
      settings: passSettings,
      baseCommit: base.commit,
      loadAverageAtStart,
      loadAverageAtEnd,
      rounds,
    };
  } finally {
    await bench.close();
    git('worktree', 'remove', '--force', dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

const span = (values: readonly number[]): string =>
  `${dec(Math.min(...values), 1)}-${dec(Math.max(...values), 1)}`;

/** Per round, a over b: the ratio drifts less than either figure on this VM. */
function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, index) => value / (b[index] as number));
}

export function passSection(result: PassResult, commit: string | null, measuredAt: string): string {
  const { rounds, settings } = result;
  const rows = parts.map((part) => [
    partNames[part],
    dec(median(rounds[part]), 1),
    span(rounds[part]),
  ]);
  const load = (values: readonly number[]) => values.map((value) => dec(value, 2)).join(' / ');
  return [
    '## Fused row pass: the validate answer before and after (bench/validate-pass.ts)',
    '',
    `${measuredAt} at commit ${commit ?? 'unknown'} against base ${result.baseCommit}, in one process, the two ` +
      `alternating: ${settings.rounds} rounds after a warm-up round, ${settings.answersPerRound} answers ` +
      `(${settings.bodies} bodies of ${settings.ibansPerBody} generated IBANs, real bank codes, paid caller) and ` +
      `${settings.batchesPerRound} stream batches of ${settings.ibansPerBatch} per part and round; CPU µs ` +
      `(process.cpuUsage). Load average ${load(result.loadAverageAtStart)} at the start, ` +
      `${load(result.loadAverageAtEnd)} at the end: taken under load on the shared VM, so absolute figures ` +
      'are inflated; the per-round ratios compare.',
    '',
    table(['part', 'median', 'range over rounds'], rows),
    '',
    `Per round: the base's written answer / the fused pass ${span(ratios(rounds.writtenBefore, rounds.fused))}x ` +
      `(median ${dec(median(ratios(rounds.writtenBefore, rounds.fused)), 2)}x); the base's general path / the ` +
      `fused pass ${span(ratios(rounds.general, rounds.fused))}x; ValidateStream here / at the base ` +
      `${span(ratios(rounds.streamAfter, rounds.streamBefore))}x (median ` +
      `${dec(median(ratios(rounds.streamAfter, rounds.streamBefore)), 2)}x). Every body's answer was checked ` +
      "byte for byte against the base's general path first.",
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rev = process.argv[2] ?? defaultBase;
  const result = await runValidatePass(rev);
  const machine = machineFacts();
  writeResult('validate-pass', result);
  const section = passSection(result, machine.commit, machine.measuredAt);
  writeSection(resultsMdPath, 'validate-pass', section);
  console.log(section);
}
