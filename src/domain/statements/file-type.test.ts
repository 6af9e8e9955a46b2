import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { sniffStatementFile } from './file-type.js';

test('files are recognised by content as written by independent encoders (pdf-lib, sharp)', async () => {
  const pdf = await (await PDFDocument.create()).save();
  assert.equal(sniffStatementFile(pdf), 'pdf');
  const pixel = sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } });
  assert.equal(sniffStatementFile(await pixel.clone().png().toBuffer()), 'png');
  assert.equal(sniffStatementFile(await pixel.clone().jpeg().toBuffer()), 'jpeg');
  assert.equal(sniffStatementFile(await pixel.clone().webp().toBuffer()), 'webp');
  assert.equal(sniffStatementFile(await pixel.clone().gif().toBuffer()), null);
  assert.equal(sniffStatementFile(await pixel.clone().tiff().toBuffer()), null);
});

test('names and declared types do not count; junk before %PDF- within 1 KB is accepted', () => {
  assert.equal(sniffStatementFile(Buffer.from('date,amount\n2025-01-01,1.00\n')), null);
  assert.equal(sniffStatementFile(Buffer.from('RIFF\0\0\0\0WAVEfmt ')), null);
  assert.equal(
    sniffStatementFile(Buffer.concat([Buffer.alloc(100, 0x20), Buffer.from('%PDF-1.4\n')])),
    'pdf',
  );
  assert.equal(
    sniffStatementFile(Buffer.concat([Buffer.alloc(2000, 0x20), Buffer.from('%PDF-1.4\n')])),
    null,
  );
  assert.equal(sniffStatementFile(new Uint8Array(0)), null);
});
