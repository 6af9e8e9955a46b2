/**
 * Compiling and signing a 500-fixture manifest (the format's maximum): how long does it take?
 *
 *   node --import tsx bench/manifest.bench.ts
 *
 * In-process, on the op's own code path (compileManifest: 500 validations against the real LMDB registry with
 * the embedded default, JCS canonicalisation, SHA-256, Ed25519 signing, and the self-verification every compile
 * runs), then the sealing alone (JCS + SHA-256 + Ed25519 sign, no validation). Fixtures: 500 seeded IBANs of ten
 * countries, every fifth with a broken check digit. Writes bench/results/manifest.json and its RESULTS.md section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countryFormats, generateIban } from '../src/domain/iban/index.js';
import { manifestBody } from '../src/domain/manifest/build.js';
import { sealManifest } from '../src/domain/manifest/signing.js';
import { requestKeyOf, rowRng } from '../src/domain/rng.js';
import { compileManifest } from '../src/ops/manifests/compile.js';
import { bankDirectoryOver, openServiceRegistry } from '../src/registry/load-directory.js';
import { loadManifestKeys } from '../src/signing/key-ring.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const fixtureCount = 500;
const runs = 200;
const warmUpRuns = 20;
const countries = ['DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PL', 'GB', 'CH'];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function time(run: () => unknown): { p50: number; p99: number } {
  for (let i = 0; i < warmUpRuns; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: round(percentile(samples, 50), 3), p99: round(percentile(samples, 99), 3) };
}

const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-manifest-'));
try {
  const bank = bankDirectoryOver(await openServiceRegistry(dataDir));
  const manifestKeys = loadManifestKeys({ dataDir, keyFile: null, enabled: true });
  const key = requestKeyOf('bench', 'manifest');
  const fixtures = Array.from({ length: fixtureCount }, (_, i) => {
    const code = countries[i % countries.length] as string;
    const format = countryFormats.find((candidate) => candidate.code === code);
    if (format === undefined) throw new Error(`no format for ${code}`);
    const iban = generateIban(format, rowRng(key, i), {}, bank).iban;
    const broken =
      i % 5 === 4 ? `${iban.slice(0, 2)}${iban[2] === '9' ? '8' : '9'}${iban.slice(3)}` : iban;
    return { country: code, iban: broken, expected_valid: broken === iban };
  });
  const input = { fixtures, seed: 'bench' };
  const full = time(() => compileManifest(input, { bank, manifestKeys }));
  const body = compileManifest(input, { bank, manifestKeys }).manifest;
  const { artifact_sha256: _hash, signature: _signature, ...unsealed } = body;
  const seal = time(() =>
    sealManifest(
      manifestBody({
        ...unsealed,
        fixtureId: unsealed.fixture_id,
        seed: 'bench',
        registrySnapshot: unsealed.registry_snapshot,
        expectedOutcomes: unsealed.expected_outcomes,
      }),
      manifestKeys.signingKeyPem,
    ),
  );
  const bytes = Buffer.byteLength(JSON.stringify(body));
  const load = loadavg()
    .map((value) => round(value, 2))
    .join(', ');
  writeResult('manifest', { fixtureCount, runs, full, seal, bytes, load });
  writeSection(
    resultsMdPath,
    'manifest',
    [
      '## Fixture manifests: compiling and signing 500 fixtures (bench/manifest.bench.ts)',
      '',
      `In-process, ${runs} runs after ${warmUpRuns} warm-up runs; manifest of ${bytes.toLocaleString('en')} bytes. Machine: 2 cores, shared ` +
        `and busy with other engineers' work (load average ${load} when measured).`,
      '',
      '| measure | p50 ms | p99 ms |',
      '| --- | --- | --- |',
      `| compile (500 validations + registry provenance + JCS + SHA-256 + Ed25519 sign + self-verify) | ${full.p50} | ${full.p99} |`,
      `| seal only (JCS + SHA-256 + Ed25519 sign) | ${seal.p50} | ${seal.p99} |`,
    ].join('\n'),
  );
  process.stdout.write(
    `compile p50 ${full.p50} ms p99 ${full.p99} ms; seal p50 ${seal.p50} ms p99 ${seal.p99} ms; ${bytes} bytes; load ${load}\n`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
