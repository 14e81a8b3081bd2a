/**
 * The bounded root scan (Core §4.1, §11): find the `specVersion` and `profile` members of the root object without
 * interpreting the rest of the document, so the reader can pick the version's contract (its carrier, its schema)
 * before any full interpretation. It reads member names and the two selector values of the root object only, and
 * skips every other value by bracket matching. It is bounded by the carrier's document-bytes and depth limits and
 * runs in one linear pass with no recursion.
 *
 * The scan is not the carrier: it accepts some texts the carrier refuses. It never decides conformance; it answers
 * "which contract applies?" or "unreadable" (docs/adr/0020-spec-version-dispatch.md), and the full carrier read that
 * always follows reports the exact carrier error.
 */

export type ScannedMember =
  | { readonly kind: 'absent' }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'other'; readonly jsonType: 'number' | 'boolean' | 'null' | 'object' | 'array' };

export type RootScan =
  | {
      readonly readable: true;
      readonly root: 'object';
      readonly specVersion: ScannedMember;
      readonly profile: ScannedMember;
    }
  | { readonly readable: true; readonly root: 'not-object' }
  | { readonly readable: false };

export interface RootScanBounds {
  readonly documentBytes: number;
  readonly depth: number;
}

const UNREADABLE: RootScan = Object.freeze({ readable: false });
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SELECTORS = new Set(['specVersion', 'profile']);

/** The JSON type of a non-string value, by its first byte ({, [, t, f, n); anything else is read as a number. */
const JSON_TYPES: Partial<Record<number, 'object' | 'array' | 'boolean' | 'null'>> = {
  0x7b: 'object',
  0x5b: 'array',
  0x74: 'boolean',
  0x66: 'boolean',
  0x6e: 'null',
};

class Unreadable extends Error {}

export function scanRoot(bytes: Uint8Array, bounds: RootScanBounds): RootScan {
  if (bytes.length > bounds.documentBytes) return UNREADABLE;
  try {
    return new Scanner(bytes, bounds.depth).root();
  } catch (e) {
    if (e instanceof Unreadable) return UNREADABLE;
    throw e;
  }
}

class Scanner {
  private pos = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly b: Uint8Array,
    private readonly maxDepth: number,
  ) {}

  root(): RootScan {
    this.ws();
    if (this.pos >= this.b.length) throw new Unreadable();
    if (this.b[this.pos] !== 0x7b /* { */) return { readable: true, root: 'not-object' };
    this.pos++;
    const found = new Map<string, ScannedMember>();
    this.ws();
    if (this.peek() === 0x7d /* } */) {
      this.pos++;
    } else {
      for (;;) {
        this.ws();
        const name = this.stringToken(true);
        this.ws();
        this.expect(0x3a /* : */);
        this.ws();
        if (SELECTORS.has(name)) {
          // A repeated selector cannot be read: the carrier will refuse it as duplicate-member (§2.1).
          if (found.has(name)) throw new Unreadable();
          found.set(name, this.selectorValue());
        } else {
          this.skipValue();
        }
        this.ws();
        const c = this.next();
        if (c === 0x2c /* , */) continue;
        if (c === 0x7d /* } */) break;
        throw new Unreadable();
      }
    }
    this.ws();
    if (this.pos !== this.b.length) throw new Unreadable();
    return {
      readable: true,
      root: 'object',
      specVersion: found.get('specVersion') ?? { kind: 'absent' },
      profile: found.get('profile') ?? { kind: 'absent' },
    };
  }

  private selectorValue(): ScannedMember {
    const c = this.peek();
    if (c === QUOTE) return { kind: 'string', value: this.stringToken(true) };
    const jsonType = JSON_TYPES[c as number] ?? 'number';
    this.skipValue();
    return { kind: 'other', jsonType };
  }

  /** Skips one value. Containers by bracket matching (strings skipped exactly), depth-bounded. */
  private skipValue(): void {
    const c = this.peek();
    if (c === QUOTE) {
      this.stringToken(false);
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      // The root object is depth 1; a member value container starts at depth 2.
      let depth = 1;
      this.pos++;
      if (depth + 1 > this.maxDepth) throw new Unreadable();
      while (depth > 0) {
        if (this.pos >= this.b.length) throw new Unreadable();
        const d = this.b[this.pos]!;
        if (d === QUOTE) {
          this.stringToken(false);
          continue;
        }
        if (d === 0x7b || d === 0x5b) {
          depth++;
          if (depth + 1 > this.maxDepth) throw new Unreadable();
        } else if (d === 0x7d || d === 0x5d) {
          depth--;
        }
        this.pos++;
      }
      return;
    }
    // Scalar: up to the next structural character or whitespace; the carrier checks its grammar.
    const start = this.pos;
    while (this.pos < this.b.length) {
      const d = this.b[this.pos]!;
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
      this.pos++;
    }
    if (this.pos === start) throw new Unreadable();
  }

  /** Reads one string token; decodes it (escapes included) when asked. */
  private stringToken(decode: boolean): string {
    if (this.peek() !== QUOTE) throw new Unreadable();
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.pos >= this.b.length) throw new Unreadable();
      const d = this.b[this.pos]!;
      if (d === BACKSLASH) {
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (d === QUOTE) break;
    }
    if (!decode) return '';
    let text: string;
    try {
      text = this.decoder.decode(this.b.subarray(start, this.pos));
      // One string token only: JSON.parse here sees no members and no numbers, so none of its hazards apply.
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'string') throw new Unreadable();
      return value;
    } catch {
      throw new Unreadable();
    }
  }

  private ws(): void {
    while (this.pos < this.b.length) {
      const d = this.b[this.pos]!;
      if (d !== 0x20 && d !== 0x09 && d !== 0x0a && d !== 0x0d) return;
      this.pos++;
    }
  }

  private peek(): number | undefined {
    return this.b[this.pos];
  }

  private next(): number | undefined {
    return this.b[this.pos++];
  }

  private expect(c: number): void {
    if (this.next() !== c) throw new Unreadable();
  }
}
