import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decryptUpload, encryptUpload } from './upload-cipher.js';

const SUFFIX = '.upload';
const PARTIAL = '.partial';

/**
 * Encrypted uploads on disk, one file per review: `<dir>/<review_id>.upload`. Written to a `.partial`
 * name first and renamed, so a crash never leaves a half file under a review's name.
 */
export class UploadFiles {
  constructor(
    readonly directory: string,
    private readonly key: Buffer,
  ) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  }

  pathOf(reviewId: string): string {
    return join(this.directory, `${reviewId}${SUFFIX}`);
  }

  write(reviewId: string, plain: Uint8Array): void {
    const partial = `${this.pathOf(reviewId)}${PARTIAL}`;
    writeFileSync(partial, encryptUpload(this.key, reviewId, plain), { mode: 0o600 });
    renameSync(partial, this.pathOf(reviewId));
  }

  read(reviewId: string): Buffer {
    return decryptUpload(this.key, reviewId, readFileSync(this.pathOf(reviewId)));
  }

  remove(reviewId: string): void {
    rmSync(this.pathOf(reviewId), { force: true });
  }

  /** Review ids with a stored upload; partial files are removed (they belong to no accepted review). */
  list(): string[] {
    const ids: string[] = [];
    for (const name of readdirSync(this.directory)) {
      if (name.endsWith(PARTIAL)) rmSync(join(this.directory, name), { force: true });
      else if (name.endsWith(SUFFIX)) ids.push(name.slice(0, -SUFFIX.length));
    }
    return ids;
  }
}
