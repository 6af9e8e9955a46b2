/**
 * The proto and the op table must say the same thing: start-up refuses to serve when they disagree.
 * Checked: every RPC has an op and every op an RPC; each request message has exactly the fields of the
 * op's input schema (path parameters included); each response message has every top-level field of
 * the op's output schema ('rows' for ops wrapped as rows, 'csv' for ops with a CSV rendering, `<name>_json` for
 * the fields an op carries as JSON text).
 * Nested messages are not compared field by field; client-stream requests and responses built by toMessage
 * are left to the ops' own tests.
 */
import type { AnyOp } from '../../contract/op.js';

interface MessageDescriptor {
  readonly type: { readonly field: readonly { readonly name: string }[] };
}

/** What proto-loader's service definition holds per method (the parts compared here). */
export type ServiceMethods = Readonly<
  Record<
    string,
    { readonly requestType: MessageDescriptor; readonly responseType: MessageDescriptor }
  >
>;

const fieldsOf = (message: MessageDescriptor): Set<string> =>
  new Set(message.type.field.map((field) => field.name));
const propertiesOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: object }).properties ?? {});

function opProblems(op: AnyOp, method: ServiceMethods[string]): string[] {
  const problems: string[] = [];
  const request = fieldsOf(method.requestType);
  const wire = (name: string) =>
    op.grpc.jsonText?.includes(name) === true ? `${name}_json` : name;
  const input = propertiesOf(op.input).map(wire);
  // A client stream's messages are chunks of one upload, not the op's input: its own tests cover that shape.
  if (op.grpc.stream !== 'client') {
    for (const name of input)
      if (!request.has(name))
        problems.push(`${op.grpc.method}: request lacks '${name}' of ${op.name}'s input`);
    for (const name of request)
      if (!input.includes(name))
        problems.push(`${op.grpc.method}: request field '${name}' is not in ${op.name}'s input`);
  }
  // An op that builds its own response message (toMessage: exact JSON text) is checked by its own tests.
  if (op.grpc.toMessage !== undefined) return problems;
  const response = fieldsOf(method.responseType);
  const expected = op.grpc.wrap === 'rows' ? ['rows'] : propertiesOf(op.output).map(wire);
  const csvOnly = op.csv !== undefined && op.csv.wanted({});
  for (const name of csvOnly ? ['csv'] : expected)
    if (!response.has(name))
      problems.push(`${op.grpc.method}: response lacks '${name}' of ${op.name}'s output`);
  if (op.csv !== undefined && !response.has('csv'))
    problems.push(`${op.grpc.method}: response lacks 'csv' (${op.name} renders CSV)`);
  return problems;
}

export function contractProblems(methods: ServiceMethods, ops: readonly AnyOp[]): string[] {
  const opMethods = new Set(ops.map((op) => op.grpc.method));
  const problems = Object.keys(methods)
    .filter((name) => !opMethods.has(name))
    .map((name) => `RPC ${name} has no op`);
  for (const op of ops) {
    const method = methods[op.grpc.method];
    if (method === undefined) problems.push(`op ${op.name} has no RPC ${op.grpc.method}`);
    else problems.push(...opProblems(op, method));
  }
  return problems;
}

export function assertContract(methods: ServiceMethods, ops: readonly AnyOp[]): void {
  const problems = contractProblems(methods, ops);
  if (problems.length > 0)
    throw new Error(`gRPC contract and op table disagree:\n- ${problems.join('\n- ')}`);
}
