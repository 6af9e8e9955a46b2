// The child process of importIntoRegistry (registry-import.ts): reads one v8-serialised ImportRequest from stdin,
// imports it through the writer handle, writes the v8-serialised summaries to stdout.
import { deserialize, serialize } from 'node:v8';
import { importFile } from '../../src/registry/store/import-file.js';
import { RegistryStore } from '../../src/registry/store/registry-store.js';
import type { ImportRequest } from './registry-import.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const request = deserialize(Buffer.concat(chunks)) as ImportRequest;
const writer = RegistryStore.openWriter(request.dataDir);
try {
  const summaries = request.imports.map((item) =>
    'file' in item
      ? importFile(writer, { ...item.file, bytes: new Uint8Array(item.file.bytes) })
      : writer.import(item.snapshot, item.options ?? {}),
  );
  process.stdout.write(serialize(summaries));
} finally {
  await writer.close();
}
