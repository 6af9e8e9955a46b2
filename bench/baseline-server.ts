/**
 * The peer for the REST load test: plain node:http + ibantools, no framework, no auth, no metering.
 * POST with body {"ibans": [...]} -> 200 and a JSON array of { iban, valid } in input order.
 * Usage: node --import tsx bench/baseline-server.ts [port]  (prints "baseline listening <port>").
 */
import { isValidIBAN } from 'ibantools';
import { serveIbans } from './lib/ibans-server.js';

serveIbans(Number(process.argv[2] ?? 0), 'baseline listening', (ibans) =>
  JSON.stringify(ibans.map((iban) => ({ iban, valid: isValidIBAN(iban) }))),
);
