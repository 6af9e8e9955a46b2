// `ibanqa manifest verify | keygen` as a child process of the real CLI, on manifests sealed by the domain code.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { manifestBody } from './domain/manifest/build.js';
import { generateSigningKey, publishedKeyOf } from './domain/manifest/keys.js';
import { sealManifest } from './domain/manifest/signing.js';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ibanqa-manifest-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], (error, stdout, stderr) => {
      resolve({
        code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
        stdout,
        stderr,
      });
    });
  });
}

const key = generateSigningKey();
const other = generateSigningKey();
const publicKey = publishedKeyOf(createPublicKey(key.privateKeyPem), 'active');
const body = manifestBody({
  fixtureId: 'cli-test',
  seed: 's',
  registrySnapshot: undefined,
  registry: { fingerprint: '0123456789abcdef', version: 3 },
  sources: [],
  schemas: [{ name: 'service-fixture-manifest', version: '1.0' }],
  expectedOutcomes: undefined,
  fixtures: [
    {
      country: 'DE',
      iban: 'DE89370400440532013000',
      expected_valid: true,
      country_code: 'DE',
      observed_valid: true,
      error: null,
      national_check: 'passed',
    },
  ],
});
const manifest = sealManifest(body, key.privateKeyPem);

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('ibanqa manifest verify', () => {
  it('accepts an intact manifest with the raw key, the PEM, or a saved compile response', async () => {
    const file = write('ok.json', manifest);
    assert.equal(
      (await runCli(['manifest', 'verify', file, '--public-key', publicKey.public_key])).code,
      0,
    );
    assert.equal(
      (
        await runCli([
          'manifest',
          'verify',
          file,
          '--public-key',
          write('key.pem', publicKey.public_key_pem),
        ])
      ).code,
      0,
    );
    const response = write('response.json', { success: true, manifest, verification: {} });
    const reply = await runCli([
      'manifest',
      'verify',
      response,
      '--public-key',
      publicKey.public_key,
    ]);
    assert.equal(reply.code, 0);
    assert.match(reply.stdout, /ok {3}step 4: Ed25519 signature verifies/);
  });

  it('names the step that failed', async () => {
    const cases: [string, unknown, string, number][] = [
      ['not-json', '{', publicKey.public_key, 1],
      ['format', { ...manifest, format: 'other/1.0' }, publicKey.public_key, 1],
      ['content', { ...manifest, seed: 't' }, publicKey.public_key, 2],
      [
        'wrong-key',
        manifest,
        publishedKeyOf(createPublicKey(other.privateKeyPem), 'active').public_key,
        3,
      ],
      ['stripped', { ...manifest, signature: undefined }, publicKey.public_key, 3],
      [
        'signature',
        {
          ...manifest,
          signature: {
            ...manifest.signature,
            value: sealManifest({ ...body, seed: 'x' }, key.privateKeyPem).signature?.value,
          },
        },
        publicKey.public_key,
        4,
      ],
    ];
    for (const [name, value, keyText, step] of cases) {
      const reply = await runCli([
        'manifest',
        'verify',
        write(`${name}.json`, value),
        '--public-key',
        keyText,
      ]);
      assert.equal(reply.code, 1, name);
      assert.match(reply.stderr, new RegExp(`step ${step}`), name);
    }
  });

  it('reports a fixture that no longer behaves as expected as step 5', async () => {
    const drifted = sealManifest(
      {
        ...body,
        fixtures: [{ ...body.fixtures[0]!, observed_valid: false, error: 'invalid_checksum' }],
      },
      key.privateKeyPem,
    );
    const reply = await runCli([
      'manifest',
      'verify',
      write('drift.json', drifted),
      '--public-key',
      publicKey.public_key,
    ]);
    assert.equal(reply.code, 1);
    assert.match(reply.stderr, /step 5/);
    assert.match(reply.stdout, /expected valid, observed invalid \(invalid_checksum\)/);
  });
});

describe('ibanqa manifest keygen', () => {
  it("writes a 0600 key file and rotates a data directory's ring keeping the old public key", async () => {
    const file = join(dir, 'operator.pem');
    const written = await runCli(['manifest', 'keygen', '--out', file]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(createPublicKey(readFileSync(file, 'utf8')).asymmetricKeyType, 'ed25519');
    assert.notEqual(
      (await runCli(['manifest', 'keygen', '--out', file])).code,
      0,
      'never overwrites a key',
    );
    const dataDir = join(dir, 'data');
    assert.equal((await runCli(['manifest', 'keygen', '--data-dir', dataDir])).code, 0);
    assert.equal((await runCli(['manifest', 'keygen', '--data-dir', dataDir])).code, 0);
    const ring = JSON.parse(readFileSync(join(dataDir, 'manifest-signing-keys.json'), 'utf8')) as {
      keys: { private_key_pem?: string }[];
    };
    assert.equal(ring.keys.length, 2);
    assert.deepEqual(
      ring.keys.map((k) => k.private_key_pem !== undefined),
      [false, true],
    );
    assert.equal(statSync(join(dataDir, 'manifest-signing-keys.json')).mode & 0o777, 0o600);
  });
});
