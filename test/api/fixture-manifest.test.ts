// Fixture manifests end to end: the real service (uWS, grpc-js, LMDB, pool) and a verifier written here from the
// published rules only (JCS by hand for the manifest's value types, node:crypto for SHA-256 and Ed25519).
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  call,
  creditsUsed as used,
  startTestService,
  type TestService,
} from '../helpers/service.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from '../helpers/grpc-client.js';

/** RFC 8785 for strings, booleans, null, safe integers, arrays and objects (members sorted by UTF-16 code units). */
function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    assert.ok(Number.isSafeInteger(value), 'manifests hold integers only');
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${jcs(member)}`).join(',')}}`;
}

function stripped(manifest: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const copy = { ...manifest };
  for (const name of names) delete copy[name];
  return copy;
}

function rawKeyToPublicKey(base64url: string): KeyObject {
  const raw = Buffer.from(base64url, 'base64url');
  assert.equal(raw.length, 32);
  return createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
}

/** The published rules, implemented independently: true only if hash, key id and signature all hold. */
function independentlyVerifies(text: string, publicKeyRaw: string): boolean {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (
    manifest === null ||
    typeof manifest !== 'object' ||
    manifest.format !== 'service-fixture-manifest/1.0' ||
    manifest.canonicalization !== 'RFC8785'
  )
    return false;
  const hash = createHash('sha256')
    .update(jcs(stripped(manifest, 'artifact_sha256', 'signature')), 'utf8')
    .digest('hex');
  if (hash !== manifest.artifact_sha256) return false;
  const signature = manifest.signature as
    { alg?: unknown; key_id?: unknown; value?: unknown } | undefined;
  if (signature?.alg !== 'Ed25519' || typeof signature.value !== 'string') return false;
  const keyId = createHash('sha256')
    .update(Buffer.from(publicKeyRaw, 'base64url'))
    .digest('hex')
    .slice(0, 16);
  if (signature.key_id !== keyId) return false;
  const bytes = Buffer.from(signature.value, 'base64url');
  if (bytes.toString('base64url') !== signature.value || bytes.length !== 64) return false;
  return verify(
    null,
    Buffer.from(jcs(stripped(manifest, 'signature')), 'utf8'),
    rawKeyToPublicKey(publicKeyRaw),
    bytes,
  );
}

const fixtures = [
  { country: 'DE', iban: 'DE89 3704 0044 0532 0130 00', expected_valid: true },
  { country: 'Germany', iban: 'DE89370400440532013001', expected_valid: false },
  { country: 'FR', iban: 'GB82WEST12345698765432', expected_valid: true }, // another country's IBAN: a mismatch
];
const request = {
  seed: 'manifest-demo',
  fixtures,
  schemas: [{ name: 'my-harness', version: '3' }],
};

describe('fixture manifests over REST and gRPC', () => {
  let service: TestService;
  let client: IbanQaClient;
  withServiceAndGrpcClient((started) => ({ service, client } = started));

  it('publishes the schema with and without the /api/v1 prefix, and the rules and keys without a key', async () => {
    const prefixed = await call(service.base, '/fixture-manifest/schema/1.0');
    const bare = await call(service.base.replace('/api/v1', ''), '/fixture-manifest/schema/1.0');
    assert.equal(prefixed.status, 200);
    assert.equal(bare.status, 200);
    assert.equal(bare.text, prefixed.text);
    assert.equal(prefixed.body.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(prefixed.body.properties.format, {
      const: 'service-fixture-manifest/1.0',
      type: 'string',
    });
    const spec = await call(service.base, '/fixture-manifest/spec');
    assert.equal(spec.status, 200);
    assert.equal(spec.body.verification_steps.length, 5);
    assert.equal(spec.body.signing.enabled, true);
    assert.equal(spec.body.public_keys.length, 1);
    const key = spec.body.public_keys[0];
    assert.equal(
      key.key_id,
      createHash('sha256')
        .update(Buffer.from(key.public_key, 'base64url'))
        .digest('hex')
        .slice(0, 16),
    );
    assert.equal(
      createPublicKey(key.public_key_pem)
        .export({ format: 'der', type: 'spki' })
        .subarray(12)
        .toString('base64url'),
      key.public_key,
    );
    const mode = statSync(join(service.dataDir, 'manifest-signing-keys.json')).mode & 0o777;
    assert.equal(mode, 0o600);
  });

  it('compiles a manifest that an independent verifier accepts, and any changed byte breaks it', async () => {
    const spec = await call(service.base, '/fixture-manifest/spec');
    const publicKey = spec.body.public_keys[0].public_key as string;
    const before = used(service, service.keys.pro);
    const reply = await call(service.base, '/fixture-manifest/compile', {
      key: service.keys.pro,
      body: request,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(used(service, service.keys.pro) - before, 3, 'one API credit per fixture');
    const { manifest, verification } = reply.body;
    assert.equal(verification.signed, true);
    assert.equal(verification.signature_key_id, spec.body.public_keys[0].key_id);
    assert.equal(verification.valid, false, 'the FR fixture holds a GB IBAN');
    assert.deepEqual(
      verification.mismatches.map((m: { index: number }) => m.index),
      [2],
    );
    assert.deepEqual(
      manifest.fixtures.map((f: { observed_valid: boolean; error: string | null }) => [
        f.observed_valid,
        f.error,
      ]),
      [
        [true, null],
        [false, 'invalid_checksum'],
        [false, 'country_mismatch'],
      ],
    );
    assert.equal(manifest.seed, 'manifest-demo');
    assert.match(manifest.fixture_id, /^fm_[0-9a-f]{24}$/);
    assert.deepEqual(manifest.registry, {
      fingerprint: manifest.registry_snapshot.split('@')[0],
      version: Number(manifest.registry_snapshot.split('@')[1]),
    });
    assert.deepEqual(manifest.schemas.at(-1), { name: 'my-harness', version: '3' });
    assert.ok(manifest.sources.every((s: { origin: string }) => s.origin === 'registry'));

    const text = JSON.stringify(manifest);
    assert.ok(independentlyVerifies(text, publicKey));
    for (let index = 0; index < text.length; index++) {
      const changed =
        text.slice(0, index) + (text[index] === 'a' ? 'b' : 'a') + text.slice(index + 1);
      assert.equal(
        independentlyVerifies(changed, publicKey),
        false,
        `byte ${index} (${text[index]}) changed and it still verified`,
      );
    }
  });

  it('gates on Pro (402, nothing debited) and answers bad fixture lists with 400, nothing debited', async () => {
    const starter = service.keys.starter;
    const before = used(service, starter);
    const refused = await call(service.base, '/fixture-manifest/compile', {
      key: starter,
      body: request,
    });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, 'payment_required');
    assert.equal(refused.body.required_plan, 'pro');
    assert.equal(used(service, starter), before);
    const pro = service.keys.pro;
    const proBefore = used(service, pro);
    const fixture = fixtures[0] as (typeof fixtures)[number];
    for (const bad of [
      { fixtures: [] },
      { fixtures: Array.from({ length: 501 }, () => fixture) },
      { fixtures: [{ country: 'DE', iban: 'DE89370400440532013000' }] },
      { fixtures: [{ ...fixture, iban: 'D'.repeat(10_000) }] },
      { fixtures: [{ ...fixture, country: 'Atlantis' }] },
      { fixtures: [fixture], sources: [{ source_id: 'x', file_sha256: 'XYZ' }] },
    ]) {
      const reply = await call(service.base, '/fixture-manifest/compile', { key: pro, body: bad });
      assert.equal(reply.status, 400, JSON.stringify(bad).slice(0, 80));
      assert.ok(typeof reply.body.error === 'string' && typeof reply.body.request_id === 'string');
    }
    assert.equal(used(service, pro), proBefore);
    assert.equal(
      (await call(service.base, '/fixture-manifest/compile', { body: request })).status,
      401,
    );
  });

  it('serves the same manifest over gRPC, as exact JSON text, with the same gates', async () => {
    const rest = await call(service.base, '/fixture-manifest/compile', {
      key: service.keys.business,
      body: request,
    });
    const grpcRequest = { ...request, fixtures: fixtures.map((f) => ({ ...f })) };
    const reply = await unary(
      client,
      'FixtureManifestCompile',
      grpcRequest,
      keyMetadata(service.keys.business),
    );
    assert.equal(reply.error, null);
    assert.equal(reply.response.manifest_json, JSON.stringify(rest.body.manifest));
    assert.equal(reply.response.verification.signed, true);
    const spec = await unary(client, 'FixtureManifestSpec', {}, keyMetadata(undefined));
    assert.equal(spec.error, null);
    assert.equal(JSON.parse(spec.response.schema_json).title, 'service-fixture-manifest/1.0');
    assert.equal(spec.response.public_keys[0].alg, 'Ed25519');
    // The documents the format rests on, as Citation messages with https URLs.
    assert.ok(spec.response.references.length >= 5);
    for (const { source } of spec.response.references) assert.match(source.url, /^https:\/\//);
    const refused = await unary(
      client,
      'FixtureManifestCompile',
      grpcRequest,
      keyMetadata(service.keys.starter),
    );
    assert.equal(refused.error?.code, 9); // FAILED_PRECONDITION = 402
    const bad = await unary(
      client,
      'FixtureManifestCompile',
      { fixtures: [] },
      keyMetadata(service.keys.pro),
    );
    assert.equal(bad.error?.code, 3); // INVALID_ARGUMENT = 400
  });
});

describe('fixture manifests across a restart', () => {
  it('gives byte-identical manifests and signatures from two runs of the service on one data directory', async () => {
    const first = await startTestService();
    const dataDir = first.dataDir;
    const a = await call(first.base, '/fixture-manifest/compile', {
      key: first.keys.pro,
      body: request,
    });
    await first.stop();
    const second = await startTestService({ dataDir });
    try {
      const b = await call(second.base, '/fixture-manifest/compile', {
        key: first.keys.pro,
        body: request,
      });
      assert.equal(b.status, 200);
      assert.equal(JSON.stringify(b.body.manifest), JSON.stringify(a.body.manifest));
      assert.ok(a.body.manifest.signature.value.length === 86);
    } finally {
      await second.dispose();
    }
  });

  it('keeps listing the old public key after a rotation, and signs with the new one', async () => {
    const first = await startTestService();
    const dataDir = first.dataDir;
    const a = await call(first.base, '/fixture-manifest/compile', {
      key: first.keys.pro,
      body: request,
    });
    await first.stop();
    const { rotateManifestKey } = await import('../../src/signing/key-ring.js');
    const rotated = rotateManifestKey(dataDir);
    const second = await startTestService({ dataDir });
    try {
      const spec = await call(second.base, '/fixture-manifest/spec');
      const keys = spec.body.public_keys as {
        key_id: string;
        public_key: string;
        status: string;
      }[];
      assert.deepEqual(
        keys.map((k) => k.status),
        ['retired', 'active'],
      );
      assert.equal(keys[1]?.key_id, rotated.keyId);
      const old = keys.find((k) => k.key_id === a.body.manifest.signature.key_id);
      assert.ok(old && independentlyVerifies(JSON.stringify(a.body.manifest), old.public_key));
      const b = await call(second.base, '/fixture-manifest/compile', {
        key: first.keys.pro,
        body: request,
      });
      assert.equal(b.body.manifest.signature.key_id, rotated.keyId);
      assert.equal(
        b.body.manifest.artifact_sha256,
        a.body.manifest.artifact_sha256,
        'the content hash does not depend on the key',
      );
    } finally {
      await second.dispose();
    }
  });

  it('signs in the worker pool exactly as inline, and with an operator key from IBANQA_SIGNING_KEY_FILE', async () => {
    const { generateSigningKey } = await import('../../src/domain/manifest/keys.js');
    const inline = await startTestService();
    const operatorKey = join(inline.dataDir, 'operator.pem');
    const operator = generateSigningKey();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(operatorKey, operator.privateKeyPem, { mode: 0o600 });
    const a = await call(inline.base, '/fixture-manifest/compile', {
      key: inline.keys.pro,
      body: request,
    });
    const dataDir = inline.dataDir;
    await inline.stop();
    const pooled = await startTestService({ dataDir, env: { IBANQA_POOL_THRESHOLD_ROWS: '1' } });
    try {
      const b = await call(pooled.base, '/fixture-manifest/compile', {
        key: inline.keys.pro,
        body: request,
      });
      assert.equal(b.status, 200, b.text);
      assert.equal(JSON.stringify(b.body.manifest), JSON.stringify(a.body.manifest));
    } finally {
      await pooled.stop();
    }
    const withOperator = await startTestService({
      dataDir,
      env: { IBANQA_SIGNING_KEY_FILE: operatorKey },
    });
    try {
      const c = await call(withOperator.base, '/fixture-manifest/compile', {
        key: inline.keys.pro,
        body: request,
      });
      assert.equal(c.body.manifest.signature.key_id, operator.keyId);
      const keys = (await call(withOperator.base, '/fixture-manifest/spec')).body.public_keys as {
        key_id: string;
        status: string;
        public_key: string;
      }[];
      assert.deepEqual(
        keys.map((k) => [k.key_id, k.status]),
        [
          [a.body.manifest.signature.key_id, 'retired'],
          [operator.keyId, 'active'],
        ],
      );
      assert.ok(independentlyVerifies(JSON.stringify(c.body.manifest), keys[1]!.public_key));
    } finally {
      await withOperator.dispose();
    }
  });

  it('compiles unsigned manifests when signing is off', async () => {
    const service = await startTestService({ env: { IBANQA_MANIFEST_SIGNING: 'off' } });
    try {
      const reply = await call(service.base, '/fixture-manifest/compile', {
        key: service.keys.pro,
        body: { fixtures: [fixtures[0]] },
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.manifest.signature, undefined);
      assert.deepEqual(
        [reply.body.verification.signed, reply.body.verification.valid],
        [false, true],
      );
      assert.equal(
        (await call(service.base, '/fixture-manifest/spec')).body.signing.enabled,
        false,
      );
    } finally {
      await service.dispose();
    }
  });
});
