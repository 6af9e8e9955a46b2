// Goal: upload bytes and extracted text never reach the logs, at the most verbose level, for a completed
// and a failed review.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startService } from '../../src/main.js';
import { settle, upload } from '../statements/client.js';
import { statementPdf } from '../statements/corpus.js';
import { germanSpec } from '../statements/samples.js';

test('logs carry review ids and outcomes, never document content', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-logs-'));
  const running = await startService(
    loadConfig(
      { IBANQA_POOL_THREADS: '2' },
      { host: '127.0.0.1', httpPort: 0, grpcPort: 0, dataDir },
    ),
    pino({ level: 'debug' }, sink),
  );
  try {
    const base = `http://127.0.0.1:${running.httpPort}/api/v1`;
    const key = running.demoKeys.find((created) => created.plan === 'pro')?.key as string;
    const good = await upload(base, await statementPdf(germanSpec), { key });
    const bad = await upload(
      base,
      Buffer.concat([
        Buffer.from('%PDF-1.7\n'),
        Buffer.from('Erika Beispiel DE89370400440532013000 '.repeat(50)),
      ]),
      { key },
    );
    assert.equal((await settle(base, key, good.body.review_id)).body.status, 'completed');
    assert.equal((await settle(base, key, bad.body.review_id)).body.status, 'analysis_failed');
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const text = lines.join('');
  assert.match(text, /statement review analysed/);
  for (const secret of ['Erika Beispiel', 'DE89', '3704 0044', '%PDF', 'Gehalt', '2.606,30'])
    assert.ok(!text.includes(secret), `log mentions ${secret}`);
});
