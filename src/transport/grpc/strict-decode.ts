import { isUtf8 } from 'node:buffer';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { MalformedInput } from '../../ops/framework/input-validation.js';
import { limits } from '../../limits.js';

/**
 * protobufjs decodes leniently: it skips unknown fields, reads a known field whatever its wire type, and
 * turns invalid UTF-8 into U+FFFD. A message that is not what the proto declares is the client's error,
 * as an unknown JSON field is over REST, so each request is checked on the wire before it is decoded.
 * A refused message becomes a MalformedInput, which the op's validator answers INVALID_ARGUMENT (a
 * throwing deserializer would make grpc-js answer INTERNAL).
 */
interface FieldDescriptor {
  readonly name: string;
  readonly number: number;
  readonly label: string;
  readonly type: string;
  readonly typeName: string;
}
interface MessageDescriptor {
  readonly field: readonly FieldDescriptor[];
}

const wireTypeOf: Readonly<Record<string, number>> = {
  TYPE_DOUBLE: 1,
  TYPE_FLOAT: 5,
  TYPE_INT64: 0,
  TYPE_UINT64: 0,
  TYPE_INT32: 0,
  TYPE_FIXED64: 1,
  TYPE_FIXED32: 5,
  TYPE_BOOL: 0,
  TYPE_STRING: 2,
  TYPE_MESSAGE: 2,
  TYPE_BYTES: 2,
  TYPE_UINT32: 0,
  TYPE_ENUM: 0,
  TYPE_SFIXED32: 5,
  TYPE_SFIXED64: 1,
  TYPE_SINT32: 0,
  TYPE_SINT64: 0,
};

class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  /** A varint of at most 10 bytes, as a number (exact up to 2^53; only lengths and tags need exactness). */
  varint(): number {
    let value = 0;
    for (let shift = 0, index = 0; index < 10; index++, shift += 7) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const byte = this.bytes[this.pos++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('varint longer than 10 bytes');
  }

  skip(count: number): void {
    if (count > this.end - this.pos) throw new Error('truncated field');
    this.pos += count;
  }
}

type Lookup = (typeName: string) => MessageDescriptor | undefined;

function checkPacked(cursor: Cursor, field: FieldDescriptor, length: number): void {
  const packed = new Cursor(cursor.bytes, cursor.pos, cursor.pos + length);
  const wireType = wireTypeOf[field.type];
  while (packed.pos < packed.end) {
    if (wireType === 0) packed.varint();
    else packed.skip(wireType === 1 ? 8 : 4);
  }
}

function checkField(
  cursor: Cursor,
  field: FieldDescriptor,
  wireType: number,
  lookup: Lookup,
  depth: number,
): void {
  const expected = wireTypeOf[field.type];
  const packed = field.label === 'LABEL_REPEATED' && expected !== 2 && wireType === 2;
  if (wireType !== expected && !packed)
    throw new Error(
      `field '${field.name}' has wire type ${wireType}, the proto declares ${String(expected)}`,
    );
  if (wireType === 0) {
    const value = cursor.varint();
    if (field.type === 'TYPE_BOOL' && value > 1)
      throw new Error(`field '${field.name}' is a bool, got ${value}`);
  } else if (wireType === 1) cursor.skip(8);
  else if (wireType === 5) cursor.skip(4);
  else {
    const length = cursor.varint();
    if (length > cursor.end - cursor.pos)
      throw new Error(`field '${field.name}' runs past the message`);
    if (packed) checkPacked(cursor, field, length);
    else if (field.type === 'TYPE_STRING')
      utf8Checked(cursor.bytes.subarray(cursor.pos, cursor.pos + length), field.name);
    else if (field.type === 'TYPE_MESSAGE') {
      const nested = lookup(field.typeName);
      if (nested === undefined)
        throw new Error(`field '${field.name}' has an unknown message type`);
      checkMessage(
        new Cursor(cursor.bytes, cursor.pos, cursor.pos + length),
        nested,
        lookup,
        depth + 1,
      );
    }
    cursor.pos += length;
  }
}

/** Node's isUtf8 validates in place; a fatal TextDecoder built a string per field only to drop it (~6 % of a ValidateStream batch). */
function utf8Checked(bytes: Uint8Array, name: string): void {
  if (!isUtf8(bytes)) throw new Error(`field '${name}' is not valid UTF-8`);
}

function checkMessage(
  cursor: Cursor,
  message: MessageDescriptor,
  lookup: Lookup,
  depth: number,
): void {
  if (depth > limits.grpcNestingMax) throw new Error('message nested too deeply');
  while (cursor.pos < cursor.end) {
    const tag = cursor.varint();
    const number = Math.floor(tag / 8);
    const field = message.field.find((candidate) => candidate.number === number);
    if (field === undefined) throw new Error(`unknown field number ${number}`);
    checkField(cursor, field, tag % 8, lookup, depth);
  }
}

/** Why `bytes` is not a well-formed `message`, or undefined when it is. */
export function wireProblem(
  bytes: Uint8Array,
  message: MessageDescriptor,
  lookup: Lookup,
): string | undefined {
  try {
    checkMessage(new Cursor(bytes, 0, bytes.length), message, lookup, 0);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function lookupIn(definition: PackageDefinition): Lookup {
  const byName = new Map<string, MessageDescriptor>();
  for (const [name, value] of Object.entries(definition)) {
    const type = (value as { type?: MessageDescriptor }).type;
    if (type?.field !== undefined) byName.set(name.slice(name.lastIndexOf('.') + 1), type);
  }
  return (typeName) => byName.get(typeName.slice(typeName.lastIndexOf('.') + 1));
}

/** The service definition with each request deserializer checking the wire first. */
export function strictService(
  service: ServiceDefinition,
  definition: PackageDefinition,
): ServiceDefinition {
  const lookup = lookupIn(definition);
  const strict: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(service)) {
    const requestType = (method as unknown as { requestType?: { type?: MessageDescriptor } })
      .requestType?.type;
    const decode = method.requestDeserialize;
    strict[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        const problem =
          requestType === undefined ? undefined : wireProblem(bytes, requestType, lookup);
        if (problem !== undefined)
          return new MalformedInput(`Malformed ${name} request message: ${problem}`);
        try {
          return decode(bytes) as unknown;
        } catch (error) {
          return new MalformedInput(
            `Malformed ${name} request message: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    };
  }
  return strict as ServiceDefinition;
}
