/**
 * Cuts a stream of byte chunks into LF-terminated lines (ADR 0200: a final LF ends the last line; every other line,
 * blank ones included, is a line; a CR before the LF stays in the line, where it is JSON whitespace). A line wholly
 * inside one chunk is a view of that chunk; a line that spans chunks is copied once. A line longer than `maxBytes`
 * is not kept: its bytes are dropped as they arrive and only its length is reported, so one hostile line costs at
 * most `maxBytes` of memory however long it is (ADR 0200).
 */
export type SplitLine =
  { readonly kind: 'line'; readonly bytes: Uint8Array } | { readonly kind: 'oversize'; readonly length: number };

const LF = 0x0a;

const asBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

export class LineSplitter {
  private chunk: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** Pieces of the current line from earlier chunks (empty when the line started in the current chunk). */
  private carry: Buffer[] = [];
  /** Byte length of the current line so far across earlier chunks. */
  private carried = 0;

  constructor(private readonly maxBytes: number) {}

  /** Hands the next chunk over; call `next()` until it returns undefined before feeding another. */
  feed(chunk: Uint8Array): void {
    this.chunk = asBuffer(chunk);
    this.pos = 0;
  }

  /** The next complete line of the fed chunk, or undefined when the rest of it is an unfinished line. */
  next(): SplitLine | undefined {
    const chunk = this.chunk;
    const start = this.pos;
    if (start >= chunk.length) return undefined;
    const lf = chunk.indexOf(LF, start); // memchr: the line scan runs natively
    if (lf < 0) {
      this.keep(chunk.subarray(start));
      this.pos = chunk.length;
      return undefined;
    }
    this.pos = lf + 1;
    return this.finish(chunk.subarray(start, lf));
  }

  /** The unterminated last line at the end of the input, if any. */
  end(): SplitLine | undefined {
    if (this.carried === 0) return undefined;
    return this.finish(Buffer.alloc(0));
  }

  private keep(piece: Buffer): void {
    this.carried += piece.length;
    if (this.carried <= this.maxBytes)
      this.carry.push(Buffer.from(piece)); // a copy: the chunk is not ours to keep
    else this.carry = [];
  }

  private finish(tail: Buffer): SplitLine {
    if (this.carried === 0) return { kind: 'line', bytes: tail };
    const length = this.carried + tail.length;
    const pieces = this.carry;
    this.carry = [];
    this.carried = 0;
    if (length > this.maxBytes) return { kind: 'oversize', length };
    pieces.push(tail);
    return { kind: 'line', bytes: Buffer.concat(pieces, length) };
  }
}
