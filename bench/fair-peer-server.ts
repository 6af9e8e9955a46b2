/**
 * The fair peer for the REST load test: what a plain node:http service would do to give ibanqa's exact answer.
 * node:http reads the body, JSON.parse, ibantools validates and parses each IBAN (isValidIBAN, extractIBAN), a Map
 * of the same bank data gives each row's bank fields, the rows are built as objects and JSON.stringify writes
 * them. No auth, no metering. ibantools has no national account checks, so a row's country_code, bank_code and
 * national_check come from a Map by IBAN built from ibanqa's captured answers: a Map read where ibanqa computes,
 * which favours the peer. It refuses to start unless its answer to every captured body is ibanqa's, byte for byte.
 * Usage: node --import tsx bench/fair-peer-server.ts <port> <captured.json>  (prints "fair peer listening <port>").
 */
import { readFileSync } from 'node:fs';
import { extractIBAN, isValidIBAN } from 'ibantools';
import type { CapturedAnswer } from './bare-uws-server.js';
import { serveIbans } from './lib/ibans-server.js';

type Row = Record<string, unknown> & { iban: string; country_code: string; bank_code: string };
const rowKeys = new Set(['iban', 'valid', 'country_code', 'bank_code', 'national_check']);

const identityByIban = new Map<
  string,
  Pick<Row, 'country_code' | 'bank_code' | 'national_check'>
>();
const bankFields = new Map<string, Record<string, unknown>>();

function learn(rows: readonly Row[]): void {
  for (const row of rows) {
    if (row.valid !== true) continue; // generated bodies hold valid IBANs; any other answer fails the check below
    const { country_code, bank_code, national_check } = row;
    identityByIban.set(row.iban, { country_code, bank_code, national_check });
    const fields = Object.fromEntries(Object.entries(row).filter(([key]) => !rowKeys.has(key)));
    bankFields.set(`${country_code}|${bank_code}`, fields);
  }
}

function rowsOf(ibans: readonly string[]): object[] {
  return ibans.map((iban) => {
    const valid = isValidIBAN(iban);
    const parsed = extractIBAN(iban);
    const identity = identityByIban.get(iban);
    const country = identity?.country_code ?? parsed.countryCode ?? null;
    const bank = identity?.bank_code ?? parsed.bankIdentifier ?? null;
    return {
      iban,
      valid,
      country_code: country,
      bank_code: bank,
      national_check: identity?.national_check ?? 'not_applicable',
      ...bankFields.get(`${country}|${bank}`),
    };
  });
}

const [portArgument, capturedFile] = process.argv.slice(2);
if (capturedFile === undefined)
  throw new Error('usage: fair-peer-server.ts <port> <captured.json>');
const captured = JSON.parse(readFileSync(capturedFile, 'utf8')) as CapturedAnswer[];
for (const { response } of captured) learn(JSON.parse(response) as Row[]);
for (const { body, response } of captured) {
  const ibans = (JSON.parse(body) as { ibans: string[] }).ibans;
  if (JSON.stringify(rowsOf(ibans)) !== response)
    throw new Error(`the fair peer's answer differs from ibanqa's for body ${body.slice(0, 80)}`);
}
serveIbans(Number(portArgument ?? 0), 'fair peer listening', (ibans) =>
  JSON.stringify(rowsOf(ibans)),
);
