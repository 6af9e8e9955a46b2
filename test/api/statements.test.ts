import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { statementPaths } from '../../src/statements/open.js';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { postForm, settle, upload } from '../statements/client.js';
import { statementPdf, statementPng } from '../statements/corpus.js';
import { germanSpec, samples } from '../statements/samples.js';

function codesOf(report: any): string[] {
  return [...report.positive_signals, ...report.risk_signals, ...report.inconsistencies].map(
    (signal: { code: string }) => signal.code,
  );
}

function statementsUsed(service: TestService, plan: 'free' | 'pro'): number {
  const account = service.running.store.listKeys().find((key) => key.plan === plan);
  assert.ok(account);
  return service.running.meter.balance(account, new Date()).statements.used;
}

describe('statement review over REST', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { IBANQA_STATEMENT_REGION: 'test-region-1' } });
  });
  after(() => service.dispose());

  for (const sample of samples) {
    it(`corpus: ${sample.name} -> ${sample.expected.status}`, async () => {
      const accepted = await upload(service.base, await sample.bytes(), {
        key: service.keys.pro,
        ...(sample.expectedBank === undefined ? {} : { expectedBank: sample.expectedBank }),
      });
      assert.equal(accepted.status, 202, accepted.text);
      assert.equal(accepted.body.status, 'pending_analysis');
      assert.equal(accepted.body.review_step, 'queued');
      assert.match(accepted.body.review_id, /^[0-9a-f]{32}$/);
      const done = await settle(service.base, service.keys.pro, accepted.body.review_id);
      assert.equal(done.status, 200, done.text);
      const expected = sample.expected;
      assert.equal(
        done.body.status,
        expected.status,
        JSON.stringify(done.body.failure ?? done.body.summary),
      );
      if (expected.status === 'analysis_failed') {
        assert.equal(done.body.failure.reason, expected.reason);
        assert.equal(done.body.failure.refunded, expected.refunded);
        return;
      }
      assert.equal(done.body.risk_level, expected.risk_level, done.body.summary);
      assert.equal(done.body.is_bank_statement, expected.is_bank_statement);
      const codes = codesOf(done.body);
      for (const code of expected.codes)
        assert.ok(codes.includes(code), `${code} expected in ${codes.join(', ')}`);
      for (const code of expected.absent ?? [])
        assert.ok(!codes.includes(code), `${code} not expected`);
      if (expected.iban !== undefined) assert.equal(done.body.extracted_fields.iban, expected.iban);
      for (const signal of [...done.body.risk_signals, ...done.body.inconsistencies]) {
        assert.ok(
          signal.message.length > 0 && Array.isArray(signal.evidence),
          `${signal.code} carries message and evidence`,
        );
      }
    });
  }

  it('a completed report carries extracted fields, IBAN and domestic checks, retention', async () => {
    const accepted = await upload(service.base, await statementPdf(germanSpec), {
      key: service.keys.pro,
    });
    assert.equal(accepted.body.retention.region, 'test-region-1');
    assert.match(accepted.body.retention.encryption.upload_at_rest, /AES-256-GCM/);
    const done = await settle(service.base, service.keys.pro, accepted.body.review_id);
    const fields = done.body.extracted_fields;
    assert.equal(fields.account_holder, 'Erika Beispiel');
    assert.deepEqual(fields.statement_period, { start: '2025-01-01', end: '2025-01-31' });
    assert.equal(fields.opening_balance, '1234.56');
    assert.equal(fields.closing_balance, '2606.30');
    assert.equal(fields.transaction_count, 5);
    assert.equal(fields.currency, 'EUR');
    assert.equal(done.body.iban_checks[0].valid, true);
    assert.equal(done.body.iban_checks[0].swift_code, germanSpec.bic);
    assert.equal(done.body.score, 100);
  });

  it('the alias path behaves like /statement-validator/analyze', async () => {
    const reply = await upload(service.base, await statementPdf(germanSpec), {
      key: service.keys.pro,
      path: '/statements/analyze',
    });
    assert.equal(reply.status, 202);
    assert.equal(
      (await settle(service.base, service.keys.pro, reply.body.review_id)).body.status,
      'completed',
    );
  });

  it('bad uploads answer 400 with their own code and debit nothing', async () => {
    const before = statementsUsed(service, 'pro');
    const key = service.keys.pro;
    const pdf = await statementPdf(germanSpec);
    const missing = new FormData();
    missing.append('expected_bank', 'x');
    const twice = new FormData();
    twice.append('statement_file', new Blob([new Uint8Array(pdf)]), 'a.pdf');
    twice.append('statement_file', new Blob([new Uint8Array(pdf)]), 'b.pdf');
    const cases: [string, Promise<{ status: number; body: any }>][] = [
      ['statement_file_missing', postForm(service.base, missing, { key })],
      ['statement_file_duplicate', postForm(service.base, twice, { key })],
      ['statement_file_empty', upload(service.base, new Uint8Array(0), { key })],
      [
        'statement_file_unsupported_type',
        upload(service.base, Buffer.from('name,amount\nx,1\n'), { key, filename: 'statement.pdf' }),
      ],
      [
        'statement_file_too_large',
        upload(service.base, Buffer.concat([pdf, Buffer.alloc(8 * 1024 * 1024)]), { key }),
      ],
      [
        'multipart_malformed',
        call(service.base, '/statement-validator/analyze', {
          key,
          raw: '--nope\r\ngarbage',
          headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
        }),
      ],
      [
        'multipart_malformed',
        call(service.base, '/statement-validator/analyze', { key, body: { statement_file: 'x' } }),
      ],
    ];
    for (const [code, pending] of cases) {
      const reply = await pending;
      assert.equal(reply.status, 400, `${code}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.error, code);
      assert.ok(typeof reply.body.request_id === 'string');
    }
    assert.equal(statementsUsed(service, 'pro'), before);
  });

  it('an oversize chunked upload is refused at the cap and not read to its end', async () => {
    const url = new URL(`${service.base}/statement-validator/analyze`);
    const boundary = 'cap-test';
    // A raw socket: the answer is read even when the server closes while we are still writing (EPIPE).
    const head = Buffer.from(
      `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\nx-api-key: ${service.keys.pro}\r\n` +
        `content-type: multipart/form-data; boundary=${boundary}\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const part = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="statement_file"; filename="big.pdf"\r\n\r\n%PDF-1.7\n`,
    );
    const chunkOf = (bytes: Buffer) =>
      Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    const filler = chunkOf(Buffer.alloc(64 * 1024, 0x41));
    const outcome = await new Promise<{ answer: string; written: number }>((resolve) => {
      let written = 0;
      let answer = '';
      const socket = connect({ host: url.hostname, port: Number(url.port) });
      socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
      socket.on('error', () => undefined); // EPIPE / ECONNRESET once the server has answered and closed
      socket.on('close', () => resolve({ answer, written }));
      socket.write(Buffer.concat([head, chunkOf(part)]));
      const pump = () => {
        // Offer up to 64 MB; the server must answer and close long before.
        while (answer === '' && !socket.destroyed && written < 64 * 1024 * 1024) {
          written += filler.length;
          if (!socket.write(filler)) return void socket.once('drain', pump);
        }
        if (!socket.destroyed) socket.end();
      };
      socket.once('connect', pump);
    });
    assert.match(outcome.answer, /^HTTP\/1\.1 400 /);
    assert.match(outcome.answer, /"error":"statement_file_too_large"/);
    assert.ok(outcome.written < 32 * 1024 * 1024, `the client could push ${outcome.written} bytes`);
  });

  it("without a key 401; the free plan's one statement, then 429", async () => {
    const pdf = await statementPdf(germanSpec);
    assert.equal((await upload(service.base, pdf)).status, 401);
    const first = await upload(service.base, pdf, { key: service.keys.free });
    assert.equal(first.status, 202);
    assert.deepEqual(first.body.quota, { limit: 1, left: 0, unlimited: false });
    const second = await upload(service.base, pdf, { key: service.keys.free });
    assert.equal(second.status, 429);
    assert.equal(second.body.error, 'Statement quota reached');
    const done = await settle(service.base, service.keys.free, first.body.review_id);
    assert.equal(
      done.body.iban_checks[0].swift_code,
      'LOCKED',
      'free keys see hidden registry values',
    );
  });

  it("another key's poll and delete are 404; the owner's delete removes file and record", async () => {
    const accepted = await upload(service.base, await statementPdf(germanSpec), {
      key: service.keys.pro,
    });
    const id = accepted.body.review_id;
    await settle(service.base, service.keys.pro, id);
    const file = join(statementPaths(service.dataDir).uploads, `${id}.upload`);
    assert.ok(existsSync(file));
    assert.ok(
      !readFileSync(file).toString('latin1').includes('%PDF'),
      'the upload is encrypted at rest',
    );
    assert.equal(
      (
        await call(service.base, `/statement-validator/review/${id}`, {
          key: service.keys.business,
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await call(service.base, `/statement-validator/review/${id}`, {
          key: service.keys.business,
          method: 'DELETE',
        })
      ).status,
      404,
    );
    const deleted = await call(service.base, `/statement-validator/review/${id}`, {
      key: service.keys.pro,
      method: 'DELETE',
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    assert.ok(!existsSync(file));
    assert.equal(
      await service.running.statements
        .view(service.running.store.listKeys().find((k) => k.plan === 'pro')!.id, id)
        .catch((error: { code: string }) => error.code),
      'not_found',
    );
    assert.equal(
      (await call(service.base, `/statement-validator/review/${id}`, { key: service.keys.pro }))
        .status,
      404,
    );
    assert.equal(
      (
        await call(service.base, `/statement-validator/review/${id}`, {
          key: service.keys.pro,
          method: 'DELETE',
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await call(service.base, '/statement-validator/review/0123456789abcdef0123456789abcdef', {
          key: service.keys.pro,
        })
      ).status,
      404,
    );
  });

  it('a poll while the analysis runs answers 202 with the step', async () => {
    const image = await statementPng(['Account statement', 'IBAN: DE89 3704 0044 0532 0130 00']);
    const accepted = await upload(service.base, image, {
      key: service.keys.pro,
      filename: 'scan.png',
    });
    const poll = await call(
      service.base,
      `/statement-validator/review/${accepted.body.review_id}`,
      { key: service.keys.pro },
    );
    assert.equal(poll.status, 202);
    assert.ok(['queued', 'analyzing'].includes(poll.body.review_step));
    assert.equal(
      (await settle(service.base, service.keys.pro, accepted.body.review_id)).status,
      200,
    );
  });
});

describe('statement retention and restarts', () => {
  it('expired reviews are swept: the encrypted file and the record are gone', async () => {
    const service = await startTestService({ env: { IBANQA_STATEMENT_RETENTION_SECONDS: '1' } });
    try {
      const accepted = await upload(service.base, await statementPdf(germanSpec), {
        key: service.keys.pro,
      });
      const id = accepted.body.review_id;
      const file = join(statementPaths(service.dataDir).uploads, `${id}.upload`);
      assert.ok(existsSync(file));
      // Swept within 1.8 s of the upload's answer (1 s retention, a sweep every 250 ms, a busy machine's slack):
      // checked every 50 ms up to then rather than after the whole 1.8 s.
      const deadline = Date.now() + 1_800;
      while (existsSync(file) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(!existsSync(file));
      assert.equal(
        (await call(service.base, `/statement-validator/review/${id}`, { key: service.keys.pro }))
          .status,
        404,
      );
    } finally {
      await service.dispose();
    }
  });

  it('a restart resumes queued analyses; a lost upload fails as upload_lost and is refunded', async () => {
    const first = await startTestService();
    const image = await statementPng([
      'Account statement',
      'IBAN: DE89 3704 0044 0532 0130 00',
      'Opening balance 10.00',
    ]);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++)
      ids.push((await upload(first.base, image, { key: first.keys.pro })).body.review_id);
    const used = statementsUsed(first, 'pro');
    assert.equal(used, 3);
    await first.stop(); // waits for the running analysis; the others stay pending
    const uploads = statementPaths(first.dataDir).uploads;
    const lost = ids[2] as string;
    const { rmSync } = await import('node:fs');
    rmSync(join(uploads, `${lost}.upload`));
    const second = await startTestService({ dataDir: first.dataDir });
    try {
      for (const id of ids.slice(0, 2))
        assert.equal((await settle(second.base, first.keys.pro, id)).body.status, 'completed');
      const failed = await settle(second.base, first.keys.pro, lost);
      assert.equal(failed.body.status, 'analysis_failed');
      assert.equal(failed.body.failure.reason, 'upload_lost');
      assert.equal(failed.body.failure.refunded, true);
      assert.equal(statementsUsed(second, 'pro'), 2);
      assert.deepEqual(
        readdirSync(uploads).sort(),
        ids
          .slice(0, 2)
          .map((id) => `${id}.upload`)
          .sort(),
      );
    } finally {
      await second.dispose();
    }
  });
});
