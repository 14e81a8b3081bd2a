/**
 * Writing a file that holds a secret (a signing key): readable by its owner only from the moment it exists, never
 * through a symlink, and never half-written (docs/adr/0152-secret-files-and-closed-stdout.md).
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class SecretFileError extends Error {
  constructor(
    readonly code: 'secret-file-exists' | 'secret-file-symlink' | 'secret-file-not-a-file',
    message: string,
  ) {
    super(message);
    this.name = 'SecretFileError';
  }
}

/** A directory only its owner can enter: created 0700, and tightened to 0700 when it already exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (lstatSync(dir).isSymbolicLink()) throw new SecretFileError('secret-file-symlink', `${dir} is a symbolic link`);
  chmodSync(dir, 0o700);
}

/**
 * Writes `bytes` to `path` with mode 0600: first to a temporary file in the same directory, created exclusively
 * (O_EXCL | O_NOFOLLOW, mode 0600 at creation), then moved into place. Without `overwrite` the move is a hard link,
 * which fails if `path` appeared meanwhile; with it, a rename. A symlink at `path` is refused either way.
 */
export function writeSecretFile(path: string, bytes: Uint8Array, overwrite = false): void {
  const existing = lstatSync(path, { throwIfNoEntry: false }) ?? null;
  if (existing?.isSymbolicLink())
    throw new SecretFileError('secret-file-symlink', `${path} is a symbolic link; refusing to write a key through it`);
  if (existing !== null && !existing.isFile())
    throw new SecretFileError('secret-file-not-a-file', `${path} exists and is not a regular file`);
  if (existing !== null && !overwrite)
    throw new SecretFileError(
      'secret-file-exists',
      `${path} exists; refusing to overwrite a signing key (use --force)`,
    );
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (overwrite) renameSync(temp, path);
    else linkSync(temp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw new SecretFileError('secret-file-exists', `${path} appeared while the key was written; not replaced`);
    throw e;
  } finally {
    rmSync(temp, { force: true });
  }
}
