// Goal: /ai-profile with an external OpenAI-compatible provider. A loopback HTTP server of the test's own plays
// the provider: it answers, answers with gaps (repaired), answers without names (refused), fails with HTTP 500,
// returns malformed JSON and hangs past the timeout. Every failure is 503 with an Error object and nothing debited;
// after three consecutive failures the circuit opens and the provider is not called at all.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { grpcClient, keyMetadata, unary } from '../helpers/grpc-client.js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';

type Behaviour = 'answer' | 'partial' | 'nameless' | 'fail' | 'malformed' | 'hang';

let behaviour: Behaviour = 'answer';
let hits = 0;
let lastRequest: any;
let provider: Server;
let service: TestService;
const hanging: ServerResponse[] = [];

function chat(content: string): string {
  return JSON.stringify({
    id: 'x',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    hits += 1;
    lastRequest = { headers: request.headers, body: JSON.parse(body) };
    const person = {
      first_name: 'Chiara',
      last_name: 'Romano',
      gender: 'female',
      date_of_birth: '1990-04-12',
      street: 'Via Roma 12',
      postal_code: '00184',
      city: 'Bologna',
      occupation: 'Analista QA',
    };
    switch (behaviour) {
      case 'answer':
        response.end(chat('```json\n' + JSON.stringify(person) + '\n```'));
        return;
      case 'partial':
        response.end(
          chat(
            JSON.stringify({
              first_name: 'Chiara',
              last_name: 'Romano',
              gender: 'F',
              date_of_birth: '1800-01-01',
            }),
          ),
        );
        return;
      case 'nameless':
        response.end(chat(JSON.stringify({ gender: 'female', city: 'Roma' })));
        return;
      case 'fail':
        response.statusCode = 500;
        response.end('{"error":"boom"}');
        return;
      case 'malformed':
        response.end('{"choices": [ {"message": ');
        return;
      case 'hang':
        hanging.push(response);
        return;
    }
  });
}

before(async () => {
  provider = createServer(handle);
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const port = (provider.address() as AddressInfo).port;
  service = await startTestService({
    env: {
      IBANQA_AI_PROFILE_URL: `http://127.0.0.1:${port}/v1/chat/completions`,
      IBANQA_AI_PROFILE_MODEL: 'test-model-1',
      IBANQA_AI_PROFILE_KEY: 'sk-test',
      IBANQA_AI_PROFILE_TIMEOUT_MS: '400',
    },
  });
});
after(async () => {
  for (const response of hanging) response.destroy();
  await service.dispose();
  await new Promise((resolve) => provider.close(resolve));
});

describe('external provider', () => {
  it('answers: the model person over the built-in draft, scored, provider and model named', async () => {
    behaviour = 'answer';
    const key = service.keys.pro;
    const before = creditsUsed(service, key, 'profiles');
    const reply = await call(service.base, '/ai-profile', {
      key,
      body: {
        country: 'Italy',
        gender: 'female',
        age_min: 20,
        age_max: 60,
        additional_info: { persona: 'QA' },
      },
    });
    assert.equal(reply.status, 200, reply.text);
    const p = reply.body.profile;
    assert.equal(p.first_name, 'Chiara');
    assert.equal(p.address.city, 'Bologna');
    assert.equal(p.provider, 'openai-compatible');
    assert.equal(p.model, 'test-model-1');
    assert.equal(p.model_tier, 'external');
    assert.deepEqual(p.repaired_fields, []);
    assert.match(p.tax_id, /^RMNCHR90D52/, 'codice fiscale rebuilt for the model person');
    assert.ok(p.quality_score >= 85, JSON.stringify(p.quality_reasons));
    assert.equal(creditsUsed(service, key, 'profiles') - before, 1);
    assert.equal(lastRequest.headers.authorization, 'Bearer sk-test');
    assert.equal(lastRequest.body.model, 'test-model-1');
    assert.match(lastRequest.body.messages[1].content, /"persona":"QA"/);
  });

  it('an answer with gaps is repaired from the draft and says so', async () => {
    behaviour = 'partial';
    const reply = await call(service.base, '/ai-profile', {
      key: service.keys.pro,
      body: { country: 'IT', age_min: 20, age_max: 60 },
    });
    assert.equal(reply.status, 200, reply.text);
    const p = reply.body.profile;
    assert.equal(p.gender, 'female');
    assert.ok(p.age >= 20 && p.age <= 60, 'out-of-range birth date replaced');
    assert.deepEqual(
      new Set(p.repaired_fields),
      new Set(['date_of_birth', 'street', 'postal_code', 'city', 'occupation']),
    );
  });

  it('an answer without names is refused: 503, nothing debited', async () => {
    behaviour = 'nameless';
    const key = service.keys.pro;
    const before = [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')];
    const reply = await call(service.base, '/ai-profile', { key, body: {} });
    assert.equal(reply.status, 503, reply.text);
    assert.equal(reply.body.error, 'unavailable');
    assert.equal(typeof reply.body.request_id, 'string');
    assert.deepEqual(
      [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')],
      before,
    );
  });

  it('HTTP 500, malformed JSON and a hang past the timeout are 503 with nothing debited; then the circuit opens', async () => {
    const key = service.keys.pro;
    const before = [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')];
    for (const failing of ['fail', 'malformed', 'hang'] as const) {
      behaviour = failing;
      const started = Date.now();
      const reply = await call(service.base, '/ai-profile', { key, body: {} });
      assert.equal(reply.status, 503, `${failing}: ${reply.text}`);
      assert.equal(reply.body.error, 'unavailable');
      if (failing === 'hang')
        assert.ok(Date.now() - started < 5_000, 'bounded by the configured timeout');
    }
    assert.deepEqual(
      [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')],
      before,
    );
    behaviour = 'answer';
    const hitsBefore = hits;
    const open = await call(service.base, '/ai-profile', { key, body: {} });
    assert.equal(open.status, 503);
    assert.match(open.body.message, /circuit open/);
    assert.equal(hits, hitsBefore, 'the provider is not called while the circuit is open');
    const grpc = grpcClient(service.grpcAddress);
    const viaGrpc = await unary(grpc, 'AiProfile', {}, keyMetadata(key));
    grpc.close();
    assert.equal(viaGrpc.error?.code, 14); // UNAVAILABLE
    assert.deepEqual(
      [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')],
      before,
    );
  });

  it('/profile never calls the external provider', async () => {
    const hitsBefore = hits;
    const reply = await call(service.base, '/profile', { key: service.keys.pro, body: {} });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.profile.provider, 'builtin');
    assert.equal(hits, hitsBefore);
  });
});

describe('unreachable provider', () => {
  it('is 503 with nothing debited', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const other = await startTestService({
      env: {
        IBANQA_AI_PROFILE_URL: `http://127.0.0.1:${port}/v1/chat/completions`,
        IBANQA_AI_PROFILE_MODEL: 'm',
      },
    });
    try {
      const key = other.keys.pro;
      const reply = await call(other.base, '/ai-profile', { key, body: {} });
      assert.equal(reply.status, 503, reply.text);
      assert.match(reply.body.message, /unreachable/);
      const account = other.running.store.authenticate(key, new Date());
      assert.ok(account);
      assert.equal(other.running.meter.balance(account, new Date()).profiles.used, 0);
    } finally {
      await other.dispose();
    }
  });
});
