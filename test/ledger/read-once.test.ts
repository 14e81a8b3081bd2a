import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../core/ledger/primitives/bytes.js';
import {
  buildEntry,
  entryHashOf,
  entryLeafHash,
  entrySigningMessage,
  parseStoredEntry,
  storedSigningMessage,
} from '../../core/ledger/entries/entry.js';
import { ED25519_L, passesStrictPrechecks, signEd25519 } from '../../core/ledger/primitives/signature.js';
import { buildLog } from '../../conformance/ledger/fixtures.js';
import { le, P } from './ed25519-vectors.js';
import { dispositionEntry, KEYS, refusalEntry, SIGNER } from './fixtures.js';

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');

/** Every entry body of the ledger corpus that reads strictly, plus generated ones of every kind. */
function readableBodies(): string[] {
  const bodies: string[] = buildLog('log-0', 30).map((r) => r.body);
  for (const name of readdirSync(SCENARIOS)) {
    const file = join(SCENARIOS, name, 'ledger.jsonl');
    if (!statSync(join(SCENARIOS, name)).isDirectory()) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      if (line === '') continue;
      try {
        bodies.push((JSON.parse(line) as { body: string }).body);
      } catch {
        // a deliberately broken line: not an entry to compare
      }
    }
  }
  return bodies.filter((b) => parseStoredEntry(b).ok);
}

describe('reading an entry once: what the hot paths take from the stored bytes equals what re-serializing gives', () => {
  it('cuts the same signing message from the stored body as entrySigningMessage re-serializes, for every corpus entry', () => {
    const bodies = readableBodies();
    expect(bodies.length).toBeGreaterThan(100);
    for (const body of bodies) {
      const parsed = parseStoredEntry(body);
      if (!parsed.ok) throw new Error('filtered above');
      expect(toHex(storedSigningMessage(body, parsed.value.entry))).toBe(
        toHex(entrySigningMessage(parsed.value.entry)),
      );
    }
  });

  it('finds the top-level signature member even when nested members or messages spell "signature"', () => {
    const tricky = [
      dispositionEntry({ correlation: { signature: 'x', 'z"signature"': '","signature":"' } }),
      refusalEntry({
        refusal: { code: 'unknown-pack-digest', message: ',"signature":"00' + 'é😀'.repeat(20) },
        requestId: 'req-"signature"',
      }),
    ];
    for (const unsigned of tricky) {
      const built = buildEntry(unsigned, SIGNER);
      expect(toHex(storedSigningMessage(built.body, built.entry))).toBe(toHex(entrySigningMessage(built.entry)));
    }
  });

  it('hashes the leaf from one encoding exactly as entryHashOf does, non-ASCII included', () => {
    for (const body of [...readableBodies().slice(0, 50), '', 'é😀\u0000x']) {
      expect(toHex(entryLeafHash(body))).toBe(entryHashOf(body));
      expect(toHex(entryLeafHash(body))).toBe(entryHashOf(new TextEncoder().encode(body)));
    }
  });
});

describe('lowercase hex decoding', () => {
  it('round-trips every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(fromHex(toHex(all))).toEqual(all);
    expect(fromHex('')).toEqual(new Uint8Array(0));
  });

  it('refuses odd lengths, upper case, prefixes and any other character', () => {
    for (const bad of ['0', 'abc', 'AB', '0x00', 'g0', '0g', ' 0', '00 ', 'é0', '\u0130\u0130', '0\u0000'])
      expect(() => fromHex(bad), bad).toThrow(RangeError);
  });
});

describe('the strict pre-checks compare S with L and y with p exactly at the boundary', () => {
  const msg = new TextEncoder().encode('boundary');
  const good = signEd25519(msg, KEYS.secretKey);
  const r = good.subarray(0, 32);
  const sig = (rBytes: Uint8Array, s: bigint): Uint8Array => Uint8Array.from([...rBytes, ...le(s)]);

  it('accepts S = L − 1 and S = 0, refuses S = L and S = L + 1 and S = 2^255', () => {
    expect(passesStrictPrechecks(sig(r, ED25519_L - 1n), KEYS.publicKey)).toBe(true);
    expect(passesStrictPrechecks(sig(r, 0n), KEYS.publicKey)).toBe(true);
    expect(passesStrictPrechecks(sig(r, ED25519_L), KEYS.publicKey)).toBe(false);
    expect(passesStrictPrechecks(sig(r, ED25519_L + 1n), KEYS.publicKey)).toBe(false);
    expect(passesStrictPrechecks(sig(r, 1n << 255n), KEYS.publicKey)).toBe(false);
  });

  it('treats R with y from p − 3 to p + 18 by the integer comparison y < p, the sign bit ignored', () => {
    for (let d = -3n; d <= 18n; d++) {
      for (const sign of [0n, 1n << 255n]) {
        // y ≥ p is not canonical; y = p − 1 (x = 0, order 2) is of small order; p − 2 and p − 3 pass.
        const expected = d < -1n;
        const ok = passesStrictPrechecks(sig(le((P + d) | sign), 1n), KEYS.publicKey);
        expect({ d, sign: sign > 0n, ok }).toEqual({ d, sign: sign > 0n, ok: expected });
      }
    }
    expect(passesStrictPrechecks(sig(r, 1n), le(P))).toBe(false);
  });
});
