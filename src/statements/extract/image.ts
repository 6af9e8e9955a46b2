import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { DocumentFacts, TextLine } from '../../domain/statements/document.js';
import type { StatementFileKind } from '../../domain/statements/file-type.js';
import { limits } from '../../limits.js';
import { AnalysisFailure } from '../failure.js';

/**
 * The English LSTM data shipped by @tesseract.js-data/eng, read from disk: tesseract.js's default langPath
 * is a CDN, and offline its createWorker never settles. cacheMethod 'none' keeps it
 * from writing eng.traineddata into the working directory.
 */
function languageDataPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(packageJson), '4.0.0_best_int');
}

let ocr: Promise<Worker> | undefined;
let ocrIdleMs: number = limits.config.poolIdleMsDefault;
let recognitions = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** How long the OCR engine may stay unused before it is released (the pool's idle setting). */
export function configureOcr(options: { readonly idleMs: number }): void {
  ocrIdleMs = options.idleMs;
}

/** Whether this thread holds an OCR engine now (created by the first image, released after idle). */
export function ocrRunning(): boolean {
  return ocr !== undefined;
}

/**
 * One tesseract worker per pool thread, created on the first image (creating one costs ~400 ms) and reused
 * while images keep coming. It is a thread of its own with the LSTM model loaded (about 100 MB), so it is
 * released after `ocrIdleMs` without an image, even when the pool thread stays busy with other work.
 */
function ocrWorker(): Promise<Worker> {
  ocr ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath: languageDataPath(),
    cachePath: mkdtempSync(join(tmpdir(), 'ibanqa-ocr-')),
    cacheMethod: 'none',
    gzip: true,
  });
  return ocr;
}

async function recognize(image: Buffer): Promise<Awaited<ReturnType<Worker['recognize']>>> {
  clearTimeout(idleTimer);
  recognitions++;
  try {
    return await (await ocrWorker()).recognize(image);
  } finally {
    if (--recognitions === 0) {
      // An engine that failed to start already failed its analysis; releasing it has nothing left to report.
      idleTimer = setTimeout(() => void closeOcr().catch(() => undefined), ocrIdleMs);
      idleTimer.unref(); // an idle engine must not keep a thread (or a test process) alive
    }
  }
}

export async function closeOcr(): Promise<void> {
  clearTimeout(idleTimer);
  const pending = ocr;
  ocr = undefined;
  if (pending !== undefined) await (await pending).terminate();
}

/** Printable runs of an EXIF block; the Software tag is one of them (a full EXIF parser is not needed for a name match). */
function exifStrings(exif: Buffer | undefined): string | null {
  if (exif === undefined) return null;
  const runs = exif.toString('latin1').match(/[\x20-\x7e]{4,}/g) ?? [];
  return runs.join(' | ') || null;
}

type Sharp = ReturnType<typeof sharp>;

/** Decodes within the pixel bound, normalises (orientation, greyscale, width) and reads the text with tesseract. */
export async function extractImage(
  bytes: Uint8Array,
  kind: StatementFileKind,
): Promise<DocumentFacts> {
  const input = () =>
    sharp(bytes, { limitInputPixels: limits.statementImagePixelsMax, failOn: 'error' });
  const metadata = await readMetadata(input);
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width * height > limits.statementImagePixelsMax) {
    throw new AnalysisFailure(
      'image_too_large',
      `${width} x ${height} = ${width * height} pixels; at most ${limits.statementImagePixelsMax} are decoded`,
    );
  }
  const normalised = await normalise(input, width);
  const { data } = await recognize(normalised);
  const lines: TextLine[] = data.text
    .split('\n')
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .filter((text) => text !== '')
    .map((text) => ({ page: 1, text, spans: [{ text, font: null }] }));
  return {
    kind,
    pages: 1,
    lines,
    pdf: null,
    image: {
      format: metadata.format ?? kind,
      width,
      height,
      ocrConfidence: data.confidence,
      software: exifStrings(metadata.exif),
    },
  };
}

// Each step opens the image inside its own try: sharp's constructor throws on input it cannot take, and that
// is an unreadable document like any decoding error.
async function readMetadata(input: () => Sharp): Promise<Awaited<ReturnType<Sharp['metadata']>>> {
  try {
    return await input().metadata();
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : 'error';
    // sharp refuses from the header alone when the declared size is past limitInputPixels.
    if (/pixel limit/i.test(message))
      throw new AnalysisFailure(
        'image_too_large',
        `the image declares more than ${limits.statementImagePixelsMax} pixels`,
      );
    throw new AnalysisFailure('unreadable_document', `the image could not be decoded (${message})`);
  }
}

/** Upright, greyscale and at most limits.statementOcrWidthMax wide: the form the OCR reads. */
async function normalise(input: () => Sharp, width: number): Promise<Buffer> {
  try {
    return await input()
      .rotate()
      .grayscale()
      .resize({ width: Math.min(width, limits.statementOcrWidthMax), withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (thrown) {
    throw new AnalysisFailure(
      'unreadable_document',
      `the image could not be decoded (${thrown instanceof Error ? thrown.message : 'error'})`,
    );
  }
}
