import { once } from 'node:events';
import { open, readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';

/**
 * What a command may touch of the outside world. Commands write only through these functions and read stdin only
 * through `readStdin`, so every command runs in-process in tests exactly as it runs from the shell.
 * Input files are always read as bytes (never as utf8 strings: that would silently replace invalid UTF-8, §2.1).
 */
export interface CliIo {
  /** Writes to standard output; text is encoded as UTF-8, bytes are written as they are. */
  readonly stdout: (chunk: string | Uint8Array) => void;
  readonly stderr: (chunk: string | Uint8Array) => void;
  /** Reads standard input to its end, as bytes. Called at most once per command run. */
  readonly readStdin: () => Promise<Uint8Array>;
  /** Standard input as byte chunks as they arrive, for a command that streams it; absent: `readStdin` is used. */
  readonly stdinChunks?: () => AsyncIterable<Uint8Array>;
  /** After writes to stdout: undefined when it can take more now, else a promise settled on its 'drain'. */
  readonly stdoutDrained?: () => Promise<void> | undefined;
}

export function processIo(): CliIo {
  return {
    stdout: (chunk) => void process.stdout.write(chunk),
    stderr: (chunk) => void process.stderr.write(chunk),
    readStdin: async () => new Uint8Array(await buffer(process.stdin)),
    stdinChunks: () => process.stdin,
    stdoutDrained: () =>
      process.stdout.writableNeedDrain ? once(process.stdout, 'drain').then(() => undefined) : undefined,
  };
}

/** An in-memory CliIo for tests and for embedding: collects stdout/stderr and serves fixed stdin bytes. */
export interface MemoryIo extends CliIo {
  /** Everything written to stdout so far, decoded as UTF-8. */
  readonly out: () => string;
  /** Everything written to stderr so far, decoded as UTF-8. */
  readonly err: () => string;
  readonly outBytes: () => Uint8Array;
}

export function memoryIo(stdin: Uint8Array | string = new Uint8Array()): MemoryIo {
  const out: Uint8Array[] = [];
  const errs: Uint8Array[] = [];
  const enc = new TextEncoder();
  const toBytes = (c: string | Uint8Array): Uint8Array => (typeof c === 'string' ? enc.encode(c) : c);
  const stdinBytes = typeof stdin === 'string' ? enc.encode(stdin) : stdin;
  return {
    stdout: (c) => void out.push(toBytes(c)),
    stderr: (c) => void errs.push(toBytes(c)),
    readStdin: async () => stdinBytes,
    outBytes: () => new Uint8Array(Buffer.concat(out)),
    out: () => Buffer.concat(out).toString('utf8'),
    err: () => Buffer.concat(errs).toString('utf8'),
  };
}

/** A named input that could not be read (exit EXIT.NO_INPUT). */
export class InputReadError extends Error {
  override readonly name = 'InputReadError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

/** Reads a command input as bytes: a file path, or "-" for standard input. */
export async function readInput(path: string, io: CliIo): Promise<Uint8Array> {
  if (path === '-') return io.readStdin();
  try {
    const buf = await readFile(path);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (e) {
    throw inputReadError(path, e);
  }
}

/** A file's bytes, or the Error reading it gave, for a command that reports an unreadable input as its verdict. */
export async function readBytesOrError(path: string): Promise<Uint8Array | Error> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    return e as Error;
  }
}

/** A command input as a stream of byte chunks: a file path, or "-" for standard input. Opening a file is checked
 * here, before anything is written, with the same errors as readInput. */
export async function openInputChunks(path: string, io: CliIo): Promise<AsyncIterable<Uint8Array>> {
  if (path === '-') return io.stdinChunks?.() ?? oneChunk(io.readStdin());
  try {
    const file = await open(path);
    if ((await file.stat()).isDirectory()) {
      await file.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    return file.createReadStream({ highWaterMark: 65_536 });
  } catch (e) {
    throw inputReadError(path, e);
  }
}

async function* oneChunk(bytes: Promise<Uint8Array>): AsyncIterable<Uint8Array> {
  yield await bytes;
}

function inputReadError(path: string, e: unknown): InputReadError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return new InputReadError(path, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code);
}
