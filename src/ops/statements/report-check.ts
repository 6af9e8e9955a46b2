import { Ajv } from 'ajv';
import type { StatementReport } from './report.js';
import { statementReportSchema } from './schemas.js';

// No defaults, no coercion, no removal: a report that does not match is refused as it came, never repaired.
const ajv = new Ajv({ allErrors: false, strict: false });
const validate = ajv.compile<StatementReport>(statementReportSchema);

/**
 * The report a pool worker sent back, checked against the report schema before the review stores it: the
 * worker's answer crosses a thread boundary as plain data, typed only once it has passed here.
 */
export function readStatementReport(raw: unknown): StatementReport {
  if (validate(raw)) return raw;
  const error = validate.errors?.[0];
  const where = error === undefined || error.instancePath === '' ? 'report' : error.instancePath;
  throw new Error(`statement report does not match its schema: ${where} ${error?.message ?? ''}`);
}
