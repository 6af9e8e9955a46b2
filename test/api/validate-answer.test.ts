// REST /validate answers a request below the pool threshold with the answer it writes itself from bank tails
// (ops/iban/validate-answer.ts), and a pooled one with the general path's rows (the worker's rows through the
// generic serializer). Both must be the same bytes for the same rows, for every caller visibility, and the tails
// must follow a registry import. Inputs are the SWIFT IBAN Registry's published examples and forms of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { callTool, httpClient } from '../mcp/clients.js';

/** Requests of this many rows or more run in the pool (the general path); fewer run inline (the written answer). */
const poolThresholdRows = 6;
const pooledFrom = { IBANQA_POOL_THRESHOLD_ROWS: String(poolThresholdRows) };
let service: TestService;

before(async () => void (service = await startTestService({ env: pooledFrom })));
after(() => service.dispose());

/** SWIFT IBAN Registry examples (banks the embedded registry may or may not know), and inputs that are not IBANs. */
const examples = [
  'DE89370400440532013000',
  'BE68539007547034',
  'NL91ABNA0417164300',
  'FR1420041010050500013M02606',
  'AT611904300234573201',
  'GB82WEST12345698765432',
  'ES9121000418450200051332',
  'IT60X0542811101000000123456',
  'DE00370400440532013000',
  'XX',
  '"\u0000',
];

const variedInput = fc
  .tuple(fc.constantFrom(...examples), fc.constantFrom('as is', 'as is', 'lower', 'grouped'))
  .map(([input, form]) =>
    form === 'lower'
      ? input.toLowerCase()
      : form === 'grouped'
        ? input.replace(/(.{4})/g, '$1 ').trim()
        : input,
  );

async function validateText(key: string | undefined, ibans: readonly string[]): Promise<string> {
  const reply = await call(service.base, '/validate', {
    ...(key === undefined ? {} : { key }),
    body: { ibans },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.text;
}

/** The inline answer's bytes against the pooled answer's first rows, re-serialized (JSON.stringify). */
async function assertSameAsPooled(key: string | undefined, list: readonly string[]) {
  const inline = await validateText(key, list);
  const padding = Array<string>(poolThresholdRows - list.length).fill('XX');
  const pooled = JSON.parse(await validateText(key, [...list, ...padding])) as unknown[];
  assert.equal(inline, JSON.stringify(pooled.slice(0, list.length)), JSON.stringify(list));
  return JSON.parse(inline) as {
    valid: boolean;
    bank_match: string;
    premium_fields_locked: boolean;
  }[];
}

/** Lists of 1-5 inputs (inline), the same every run. */
const lists = (count: number, seed: number) =>
  fc.sample(fc.array(variedInput, { minLength: 1, maxLength: poolThresholdRows - 1 }), {
    numRuns: count,
    seed,
  });

test('keyless, free, paid and paid-with-reveals-spent: the written answer is the general path to the byte', async () => {
  let shown = 0;
  for (const list of lists(15, 1))
    for (const row of await assertSameAsPooled(service.keys.business, list))
      if (row.bank_match === 'matched' && !row.premium_fields_locked) shown++;
  assert.ok(shown > 0, 'the paid lists show banks: the tails were used');
  for (const list of lists(7, 2)) await assertSameAsPooled(undefined, list);
  for (const list of lists(3, 3)) await assertSameAsPooled(service.keys.free, list);
  // pass24h: 40 BIC reveals, 100 API calls; spend the reveals (in the pool), then its answers are locked.
  const key = service.keys.pass24h;
  await validateText(key, Array<string>(40).fill('DE89370400440532013000'));
  for (const list of lists(4, 4)) {
    const rows = await assertSameAsPooled(key, list);
    // A list whose rows hold no reveal (all invalid) fits and is answered as shown; a valid row locks it.
    if (rows.some((row) => row.valid))
      assert.ok(
        rows.every((row) => row.premium_fields_locked),
        JSON.stringify(rows),
      );
  }
});

test("over MCP (the REST front's calls): the tool text is the written answer, the general path to the byte", async () => {
  // pass24h spent its reveals in the test above: its rows are the reveals-spent visibility.
  const callers: [string | undefined, number][] = [
    [service.keys.business, 4],
    [service.keys.free, 2],
    [service.keys.pass24h, 2],
    // Keyless clients share a small daily allowance per IP, which the test above used most of.
    [undefined, 1],
  ];
  for (const [key, count] of callers) {
    const client = await httpClient(service.base, key);
    try {
      for (const list of lists(count, 5)) {
        const tool = await callTool(client, 'iban_validate', { ibans: list });
        assert.equal(tool.isError, false, tool.text);
        const padding = Array<string>(poolThresholdRows - list.length).fill('XX');
        const pooled = JSON.parse(await validateText(key, [...list, ...padding])) as unknown[];
        assert.equal(tool.text, JSON.stringify(pooled.slice(0, list.length)), JSON.stringify(list));
      }
    } finally {
      await client.close();
    }
  }
});

test('a paid answer written from tails charges one BIC reveal per row that showed a bank', async () => {
  const key = service.keys.business;
  const ibans = ['DE89370400440532013000', 'de89 3704 0044 0532 0130 00', 'DE00370400440532013000'];
  const before = (await call(service.base, '/usage', { key })).body.credits;
  const rows = JSON.parse(await validateText(key, ibans)) as { bank_match: string }[];
  const after = (await call(service.base, '/usage', { key })).body.credits;
  const shown = rows.filter((row) => row.bank_match === 'matched').length;
  assert.equal(
    shown,
    2,
    'the electronic and the paper form show the bank; the bad checksum does not',
  );
  assert.equal(after.bic_reveals.used - before.bic_reveals.used, shown);
});

/** The synthetic Bundesbank fixture's bank 99999901 (test/fixtures/registry), its first record's name changed. */
function importBundesbank(name: string, snapshotDate: string) {
  const original = readFixture('bundesbank-synthetic-latin1.txt');
  const text = Buffer.from(original).toString('latin1').replace('Synthetische Testbank Köln', name);
  assert.equal(text.length, original.length, 'fixed-width record kept');
  return importIntoRegistry(service.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: Buffer.from(text, 'latin1'),
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate,
      },
    },
  ]);
}

test('after a registry import the written answer shows the new bank data, as the general path does', async () => {
  // Account 0001000009: Bundesbank method 00 (the fixture's) over 000100000 gives check digit 9; IBAN check
  // digits by ibantools.composeIBAN.
  const iban = 'DE83999999010001000009';
  const bankName = async () =>
    (
      (await assertSameAsPooled(service.keys.business, [iban])) as unknown as {
        bank_name: string;
      }[]
    )[0]?.bank_name;
  await importBundesbank('Synthetische Testbank Köln', '2026-01-01');
  assert.equal(await bankName(), 'Synthetische Testbank Köln');
  await importBundesbank('Synthetische Testbank Bonn', '2026-02-01');
  assert.equal(await bankName(), 'Synthetische Testbank Bonn');
});
