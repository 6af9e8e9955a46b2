import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { defaultPoolThresholdRows, frontPolicies, loadConfig } from './config.js';

test('defaults: loopback, 8080/50051, ./var, disk durability, the default pool threshold, no US directory files', () => {
  const config = loadConfig({});
  assert.equal(config.ledgerDurability, 'disk');
  assert.equal(config.host, '127.0.0.1');
  assert.deepEqual([config.httpPort, config.grpcPort], [8080, 50051]);
  assert.equal(config.dataDir, resolve('var'));
  assert.equal(config.poolThresholdRows, defaultPoolThresholdRows);
  assert.deepEqual(config.usDirectoryFiles, []);
  assert.ok(Object.isFrozen(config));
});

test('every setting is read from the environment once and validated with a clear message', () => {
  const config = loadConfig({
    IBANQA_PORT: '0',
    IBANQA_GRPC_PORT: '6000',
    IBANQA_POOL_THREADS: '3',
    IBANQA_LOG_LEVEL: 'warn',
    IBANQA_LEDGER_DURABILITY: 'process',
    IBANQA_TRUST_PROXY: 'true',
    IBANQA_US_DIRECTORY_FILES: 'fedach:/data/FedACHdir.txt,fedwire:/data/fpddir.txt',
  });
  assert.deepEqual(
    [
      config.httpPort,
      config.grpcPort,
      config.poolThreads,
      config.logLevel,
      config.ledgerDurability,
      config.trustProxyDeprecated,
      config.trustedProxies.trusts('198.51.100.7'),
    ],
    [0, 6000, 3, 'warn', 'process', true, true],
  );
  assert.deepEqual(config.usDirectoryFiles, [
    { source: 'fedach', path: '/data/FedACHdir.txt' },
    { source: 'fedwire', path: '/data/fpddir.txt' },
  ]);
  assert.throws(
    () => loadConfig({ IBANQA_PORT: '70000' }),
    /IBANQA_PORT must be an integer port from 0 to 65535/,
  );
  assert.throws(
    () => loadConfig({ IBANQA_POOL_THREADS: '0' }),
    /IBANQA_POOL_THREADS must be an integer from 1 to 16/,
  );
  assert.throws(() => loadConfig({ IBANQA_LOG_LEVEL: 'loud' }), /IBANQA_LOG_LEVEL must be one of/);
  assert.throws(
    () => loadConfig({ IBANQA_LEDGER_DURABILITY: 'none' }),
    /IBANQA_LEDGER_DURABILITY must be one of disk, process, got "none"/,
  );
  assert.throws(
    () => loadConfig({ IBANQA_US_DIRECTORY_FILES: 'bundesbank:/x' }),
    /IBANQA_US_DIRECTORY_FILES: expected "fedach:<path>"/,
  );
});

test('overrides (CLI flags) win over the environment', () => {
  const config = loadConfig(
    { IBANQA_PORT: '9000', IBANQA_DATA_DIR: '/tmp/from-env' },
    { httpPort: 9100, dataDir: '/tmp/from-flag' },
  );
  assert.deepEqual([config.httpPort, config.dataDir], [9100, '/tmp/from-flag']);
});

test('external profile provider: off by default, needs an http(s) URL and a model, bounded timeout', () => {
  assert.equal(loadConfig({}).aiProfile, null);
  const on = loadConfig({
    IBANQA_AI_PROFILE_URL: 'http://127.0.0.1:9/v1/chat/completions',
    IBANQA_AI_PROFILE_MODEL: 'm',
    IBANQA_AI_PROFILE_KEY: 'k',
  }).aiProfile;
  assert.deepEqual(on, {
    url: 'http://127.0.0.1:9/v1/chat/completions',
    model: 'm',
    apiKey: 'k',
    timeoutMs: 8_000,
  });
  assert.throws(
    () => loadConfig({ IBANQA_AI_PROFILE_URL: 'http://127.0.0.1:9/' }),
    /IBANQA_AI_PROFILE_MODEL/,
  );
  assert.throws(
    () => loadConfig({ IBANQA_AI_PROFILE_URL: 'ftp://host/x', IBANQA_AI_PROFILE_MODEL: 'm' }),
    /http\(s\)/,
  );
  assert.throws(
    () => loadConfig({ IBANQA_AI_PROFILE_URL: 'not a url', IBANQA_AI_PROFILE_MODEL: 'm' }),
    /http\(s\)/,
  );
  assert.throws(
    () =>
      loadConfig({
        IBANQA_AI_PROFILE_URL: 'http://h/',
        IBANQA_AI_PROFILE_MODEL: 'm',
        IBANQA_AI_PROFILE_TIMEOUT_MS: '60001',
      }),
    /TIMEOUT_MS/,
  );
});

test('IBANQA_HTTP_THREADS: 1 by default, 1 to 16; a front thread rebuilds the proxy and CORS policies from the settings as given', () => {
  assert.equal(loadConfig({}).httpThreads, 1);
  assert.equal(loadConfig({ IBANQA_HTTP_THREADS: '3' }).httpThreads, 3);
  assert.throws(
    () => loadConfig({ IBANQA_HTTP_THREADS: '0' }),
    /IBANQA_HTTP_THREADS must be an integer from 1 to 16/,
  );
  assert.throws(
    () => loadConfig({ IBANQA_HTTP_THREADS: '17' }),
    /IBANQA_HTTP_THREADS must be an integer from 1 to 16/,
  );
  const listed = frontPolicies(
    loadConfig({ IBANQA_TRUSTED_PROXIES: '10.0.0.0/8', IBANQA_CORS_ORIGINS: 'https://a.example' })
      .frontSettings,
  );
  assert.deepEqual(
    [listed.trustedProxies.trusts('10.1.2.3'), listed.trustedProxies.trusts('192.0.2.1')],
    [true, false],
  );
  assert.deepEqual(
    [
      listed.cors.enabled,
      listed.cors.allowed('https://a.example'),
      listed.cors.allowed('https://b.example'),
    ],
    [true, 'https://a.example', undefined],
  );
  const legacy = frontPolicies(loadConfig({ IBANQA_TRUST_PROXY: 'true' }).frontSettings);
  assert.equal(
    legacy.trustedProxies.trusts('192.0.2.1'),
    true,
    'the deprecated trust-every-peer setting carries over',
  );
  const none = frontPolicies(loadConfig({}).frontSettings);
  assert.deepEqual([none.trustedProxies.trusts('10.1.2.3'), none.cors.enabled], [false, false]);
});

test('IBANQA_POOL_IDLE_MS: a minute by default, 1 ms to a day, anything else refused', () => {
  assert.equal(loadConfig({}).poolIdleMs, 60_000);
  assert.equal(loadConfig({ IBANQA_POOL_IDLE_MS: '250' }).poolIdleMs, 250);
  assert.equal(loadConfig({ IBANQA_POOL_IDLE_MS: '86400000' }).poolIdleMs, 24 * 60 * 60 * 1000);
  for (const bad of ['0', '86400001', '1.5', 'soon'])
    assert.throws(
      () => loadConfig({ IBANQA_POOL_IDLE_MS: bad }),
      /IBANQA_POOL_IDLE_MS must be an integer from 1 to 86400000/,
    );
});

test('IBANQA_DATABASE_URL selects the shared database; --database-url wins; unset is LMDB; not a postgres URL is refused', () => {
  assert.equal(loadConfig({}).databaseUrl, null, 'the embedded default needs no database');
  const url = 'postgres://ibanqa@db.internal:5432/ibanqa';
  assert.equal(loadConfig({ IBANQA_DATABASE_URL: url }).databaseUrl, url);
  assert.equal(
    loadConfig({ IBANQA_DATABASE_URL: url }, { databaseUrl: 'postgresql://other/db' }).databaseUrl,
    'postgresql://other/db',
  );
  assert.throws(() => loadConfig({ IBANQA_DATABASE_URL: 'mysql://db/x' }), /postgres:\/\//);
  assert.throws(() => loadConfig({ IBANQA_DATABASE_URL: 'not a url' }), /IBANQA_DATABASE_URL/);
});
