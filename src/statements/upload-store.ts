/**
 * Where the encrypted uploads live, behind a port: the disk (upload-files.ts, one node) or PostgreSQL
 * (postgres/upload-store-pg.ts, shared by every node). Both store what encryptUpload made and hand back those
 * sealed bytes; the one decrypt is the pool worker's (src/ops/statements/analyze-upload.ts), so the plain
 * upload exists only in the worker that reads it.
 */
export interface UploadStore {
  /** Checks, before the first upload, that this store can read what the others sharing it wrote (a shared key). */
  open?(): Promise<void>;
  /** Encrypts and stores the upload under its review id; a crash never leaves a half upload under that id. */
  write(reviewId: string, plain: Uint8Array): Promise<void>;
  /** The stored, still encrypted bytes; throws when there are none. */
  readSealed(reviewId: string): Promise<Buffer>;
  remove(reviewId: string): Promise<void>;
  /** Review ids with a stored upload old enough that an accept cannot still be recording its review. */
  list(): Promise<string[]>;
}
