/**
 * `ibanqa manifest verify | keygen`: offline verification of a fixture manifest, step by step as published at
 * /fixture-manifest/spec, and the operator's signing keys.
 */
import { createPublicKey } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { generateSigningKey, parsePublicKey, publishedKeyOf } from './domain/manifest/keys.js';
import { verificationSteps, verifyManifest } from './domain/manifest/verify.js';
import { rotateManifestKeyIn } from './signing/key-ring.js';
import { databaseUrlOption, withState, type StateOptions } from './cli-state.js';

type Write = (line: string) => void;
const out: Write = (line) => process.stdout.write(`${line}\n`);
const err: Write = (line) => process.stderr.write(`${line}\n`);

/** A file holds the manifest itself or a whole compile response ({success, manifest, verification}). */
function manifestOf(parsed: unknown): unknown {
  if (
    parsed !== null &&
    typeof parsed === 'object' &&
    !('format' in parsed) &&
    'manifest' in parsed
  )
    return (parsed as { manifest: unknown }).manifest;
  return parsed;
}

/** --public-key takes the key text (PEM or raw base64url) or a file holding it. */
function keyText(option: string): string {
  return existsSync(option) ? readFileSync(option, 'utf8') : option;
}

function verifyCommand(file: string, options: { publicKey?: string; json?: boolean }): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    err(
      `step 1 failed: ${file} is not readable JSON (${error instanceof Error ? error.message : String(error)})`,
    );
    process.exitCode = 1;
    return;
  }
  const keys = [];
  if (options.publicKey !== undefined) {
    const key = parsePublicKey(keyText(options.publicKey));
    if (key === undefined) {
      err(
        '--public-key is neither an Ed25519 public key in PEM nor a raw 32-byte key in base64url',
      );
      process.exitCode = 2;
      return;
    }
    keys.push(key);
  }
  const report = verifyManifest(manifestOf(parsed), keys, options.publicKey !== undefined);
  if (options.json) out(JSON.stringify(report));
  else {
    for (const step of report.steps)
      out(
        `${step.ok === true ? 'ok  ' : step.ok === false ? 'FAIL' : 'skip'} step ${step.step}: ${step.detail}`,
      );
    for (const mismatch of report.mismatches)
      out(
        `     fixture ${mismatch.index} ${mismatch.iban}: expected ${mismatch.expected_valid ? 'valid' : 'invalid'}, observed ${mismatch.observed_valid ? 'valid' : `invalid (${mismatch.error})`}`,
      );
  }
  if (report.failed_step !== null) {
    err(
      `verification failed at step ${report.failed_step}: ${verificationSteps[report.failed_step - 1]}`,
    );
    process.exitCode = 1;
  } else if (!report.signed || keys.length === 0) {
    err(
      report.signed
        ? 'hash verified; signature NOT checked: pass --public-key to check it'
        : 'hash verified; the manifest is not signed',
    );
  }
}

async function keygenCommand(options: { out?: string } & StateOptions): Promise<void> {
  if (options.out !== undefined) {
    const { privateKeyPem, keyId } = generateSigningKey();
    writeFileSync(options.out, privateKeyPem, { mode: 0o600, flag: 'wx' });
    chmodSync(options.out, 0o600);
    const published = publishedKeyOf(createPublicKey(privateKeyPem), 'active');
    out(
      `wrote ${options.out} (Ed25519, PKCS#8 PEM, mode 0600): set IBANQA_SIGNING_KEY_FILE=${options.out}`,
    );
    out(`key_id     ${keyId}`);
    out(`public_key ${published.public_key}`);
    return;
  }
  await withState(options, async ({ keyRing, where }) => {
    const rotated = await rotateManifestKeyIn(keyRing);
    out(
      `new signing key ${rotated.keyId} in ${where}; retired (still published): ${rotated.retired.join(', ') || 'none'}`,
    );
    out('restart the service (every node of a shared database) to sign with it');
  });
}

export function registerManifestCommands(program: Command): void {
  const manifest = program
    .command('manifest')
    .description('Fixture manifests: verify offline, manage signing keys');
  manifest
    .command('verify <file>')
    .description(
      'Verify a service-fixture-manifest/1.0 file (or a saved compile response); says which step failed',
    )
    .option(
      '--public-key <key>',
      'pinned Ed25519 public key: PEM, raw base64url, or a file holding either',
    )
    .option('--json', 'print the step report as JSON')
    .action((file: string, options: { publicKey?: string; json?: boolean }) =>
      verifyCommand(file, options),
    );
  manifest
    .command('keygen')
    .description(
      "Rotate the deployment's signing key (old public keys stay published), or write a new key file with --out",
    )
    .option(
      '--out <file>',
      'write a new PKCS#8 PEM private key here for IBANQA_SIGNING_KEY_FILE (refuses to overwrite)',
    )
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .option(...databaseUrlOption)
    .action((options: { out?: string } & StateOptions) => keygenCommand(options));
}
