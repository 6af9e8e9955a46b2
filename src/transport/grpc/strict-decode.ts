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
    // Tags and short lengths are one byte: read them without the general loop.
    if (this.pos < this.end && (this.bytes[this.pos] as number) < 0x80)
      return this.bytes[this.pos++] as number;
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

/**
 * A field as the check needs it, resolved once per message type: the proto-loader descriptor names types by
 * string, and looking those up per field (a find over the message's fields, a string-keyed table) was half of
 * the check's cost on a 1,000-IBAN ValidateStream batch.
 */
interface CheckedField {
  readonly name: string;
  /** The wire type the proto declares; -1 for a type this check does not know (refused on the wire). */
  readonly wireType: number;
  /** A repeated scalar, which may also arrive packed (length-delimited). */
  readonly packable: boolean;
  readonly isBool: boolean;
  readonly isString: boolean;
  /** The nested message type's name (TYPE_MESSAGE); nested messages are rare, so it is looked up when met. */
  readonly typeName: string | null;
}

interface CheckedMessage {
  readonly fields: ReadonlyMap<number, CheckedField>;
}

const compiled = new WeakMap<MessageDescriptor, CheckedMessage>();

function compile(message: MessageDescriptor): CheckedMessage {
  let checked = compiled.get(message);
  if (checked === undefined) {
    const fields = new Map<number, CheckedField>();
    for (const field of message.field) {
      const wireType = wireTypeOf[field.type] ?? -1;
      fields.set(field.number, {
        name: field.name,
        wireType,
        packable: field.label === 'LABEL_REPEATED' && wireType !== 2,
        isBool: field.type === 'TYPE_BOOL',
        isString: field.type === 'TYPE_STRING',
        typeName: field.type === 'TYPE_MESSAGE' ? field.typeName : null,
      });
    }
    checked = { fields };
    compiled.set(message, checked);
  }
  return checked;
}

function checkPacked(cursor: Cursor, field: CheckedField, length: number): void {
  const packed = new Cursor(cursor.bytes, cursor.pos, cursor.pos + length);
  while (packed.pos < packed.end) {
    if (field.wireType === 0) packed.varint();
    else packed.skip(field.wireType === 1 ? 8 : 4);
  }
}

function checkField(
  cursor: Cursor,
  field: CheckedField,
  wireType: number,
  lookup: Lookup,
  depth: number,
): void {
  const packed = field.packable && wireType === 2;
  if (wireType !== field.wireType && !packed)
    throw new Error(
      `field '${field.name}' has wire type ${wireType}, the proto declares ${field.wireType === -1 ? 'undefined' : field.wireType}`,
    );
  if (wireType === 0) {
    const value = cursor.varint();
    if (field.isBool && value > 1) throw new Error(`field '${field.name}' is a bool, got ${value}`);
  } else if (wireType === 1) cursor.skip(8);
  else if (wireType === 5) cursor.skip(4);
  else {
    const length = cursor.varint();
    if (length > cursor.end - cursor.pos)
      throw new Error(`field '${field.name}' runs past the message`);
    if (packed) checkPacked(cursor, field, length);
    else if (field.isString) utf8Checked(cursor.bytes, cursor.pos, length, field.name);
    else if (field.typeName !== null) {
      const nested = lookup(field.typeName);
      if (nested === undefined)
        throw new Error(`field '${field.name}' has an unknown message type`);
      checkMessage(
        new Cursor(cursor.bytes, cursor.pos, cursor.pos + length),
        compile(nested),
        lookup,
        depth + 1,
      );
    }
    cursor.pos += length;
  }
}

/**
 * ASCII is valid UTF-8, and most strings here (IBANs, codes) are ASCII: scanned in place. Anything else goes
 * to Node's isUtf8 (a fatal TextDecoder built a string per field only to drop it, ~6 % of a ValidateStream batch;
 * a subarray per field for isUtf8 was most of the rest of the string check).
 */
function utf8Checked(bytes: Uint8Array, start: number, length: number, name: string): void {
  const end = start + length;
  for (let index = start; index < end; index++) {
    if ((bytes[index] as number) >= 0x80) {
      if (!isUtf8(bytes.subarray(start, end)))
        throw new Error(`field '${name}' is not valid UTF-8`);
      return;
    }
  }
}

function checkMessage(
  cursor: Cursor,
  message: CheckedMessage,
  lookup: Lookup,
  depth: number,
): void {
  if (depth > limits.grpcNestingMax) throw new Error('message nested too deeply');
  while (cursor.pos < cursor.end) {
    const tag = cursor.varint();
    const number = Math.floor(tag / 8);
    const field = message.fields.get(number);
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
    checkMessage(new Cursor(bytes, 0, bytes.length), compile(message), lookup, 0);
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
