import type { TSchema } from '@sinclair/typebox';
import { assert } from '../../assert.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HttpOp, UploadRules } from '../../ops/framework/op.js';
import { uploadRulesOf } from '../upload-rules.js';

/** One MCP tool: an op of the table, as MCP clients see it. */
export interface McpTool {
  readonly op: HttpOp;
  readonly tool: Tool;
  /** Multipart ops: their upload rules; the file is sent base64-encoded in the string field they name. */
  readonly upload: UploadRules | undefined;
}

/** The suffix of the optional field that carries an upload's file name (`statement_file_filename`). */
export const filenameSuffix = '_filename';

/** MCP tool names allow [A-Za-z0-9_.-]; some clients refuse dots, so `iban.generate` becomes `iban_generate`. */
export function toolNameOf(op: HttpOp): string {
  return op.name.replace(/[^A-Za-z0-9_-]/g, '_');
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema> };

/** The TypeBox declaration as plain JSON Schema (TypeBox marks its schemas with symbol keys, which JSON drops). */
function plainSchema(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/**
 * A multipart op's form (op.multipartSchema) as JSON arguments: the file field of its upload rules becomes a base64
 * string, with an optional `<field>_filename`; the text fields stay as they are.
 */
function uploadSchema(form: TSchema, rules: UploadRules): JsonSchema {
  const schema = plainSchema(form);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (name !== rules.field) {
      properties[name] = field;
      continue;
    }
    const { format: _binary, ...rest } = field;
    const described = typeof field.description === 'string' ? field.description : 'A file';
    properties[name] = {
      ...rest,
      contentEncoding: 'base64',
      description: `${described}, base64-encoded`,
    };
    properties[`${name}${filenameSuffix}`] = {
      type: 'string',
      description: `The file name of ${name} (a hint only; the type is recognised by its bytes)`,
    };
  }
  return { ...schema, properties, additionalProperties: false };
}

function toolOf(op: HttpOp): McpTool {
  const upload = op.http.inputFrom === 'multipart' ? uploadRulesOf(op) : undefined;
  const schema =
    upload === undefined
      ? plainSchema(op.input)
      : uploadSchema(op.multipartSchema ?? op.input, upload);
  const tool: Tool = {
    name: toolNameOf(op),
    title: op.summary,
    description: op.description,
    inputSchema: { ...schema, type: 'object' },
    annotations: {
      title: op.summary,
      readOnlyHint: op.http.method === 'GET',
      destructiveHint: op.http.method === 'DELETE',
      openWorldHint: false,
    },
  };
  return { op, tool, upload };
}

/** Every REST op is a tool, derived from its declaration: name, summary, description and input schema. */
export function toolsOf(ops: readonly HttpOp[]): ReadonlyMap<string, McpTool> {
  const tools = new Map(ops.map((op) => [toolNameOf(op), toolOf(op)]));
  assert(tools.size === ops.length, 'op names stay unique as tool names');
  return tools;
}
