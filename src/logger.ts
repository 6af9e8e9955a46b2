import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

/** JSON logs to stderr, so stdout stays for what the operator asked for (demo keys, CLI JSON output). */
export function createLogger(level: Config['logLevel']): Logger {
  return pino({ level, base: { service: 'ibanqa' } }, pino.destination(2));
}
