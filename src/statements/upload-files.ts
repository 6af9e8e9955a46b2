import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encryptUpload } from './upload-cipher.js';
import type { UploadStore } from './upload-store.js';

const SUFFIX = '.upload';
const PARTIAL = '.partial';

/**
 * Encrypted uploads on disk, one file per review: `<dir>/<review_id>.upload`. Written to a `.partial`
 * name first and renamed, so a crash never leaves a half file under a review's name. One node only: a
 * process that accepts is the only one that lists, so every listed upload's accept has finished.
 */
export class UploadFiles implements UploadStore {
  constructor(
    readonly directory: string,
    private readonly key: Buffer,
  ) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  }

  pathOf(reviewId: string): string {
    return join(this.directory, `${reviewId}${SUFFIX}`);
  }

  async write(reviewId: string, plain: Uint8Array): Promise<void> {
    const partial = `${this.pathOf(reviewId)}${PARTIAL}`;
    writeFileSync(partial, encryptUpload(this.key, reviewId, plain), { mode: 0o600 });
    renameSync(partial, this.pathOf(reviewId));
  }

  async readSealed(reviewId: string): Promise<Buffer> {
    return readFile(this.pathOf(reviewId));
  }

  async remove(reviewId: string): Promise<void> {
    rmSync(this.pathOf(reviewId), { force: true });
  }

  /** Review ids with a stored upload; partial files are removed (they belong to no accepted review). */
  async list(): Promise<string[]> {
    const ids: string[] = [];
    for (const name of readdirSync(this.directory)) {
      if (name.endsWith(PARTIAL)) rmSync(join(this.directory, name), { force: true });
      else if (name.endsWith(SUFFIX)) ids.push(name.slice(0, -SUFFIX.length));
    }
    return ids;
  }
}
