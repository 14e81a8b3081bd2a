import { describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { sha256Hex, toHex } from '../../core/ledger/primitives/bytes.js';
import {
  buildEntry,
  capMessage,
  entryHashOf,
  entrySigningMessage,
  EntryInvariantError,
  parseStoredEntry,
  verifyParsedEntrySignature,
} from '../../core/ledger/entries/entry.js';
import { ENTRY_SIGNATURE_DOMAIN, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { createHash } from 'node:crypto';
import { canonicalDisposition } from '../../core/evaluate/disposition.js';
import type { Disposition } from '../../core/evaluate/types.js';
import { inspect } from 'node:util';
import {
  dispositionEntry,
  errorEntry,
  KEYS,
  OTHER_KEYS,
  refusalEntry,
  SIGNER,
  verifyEntrySignature,
} from './fixtures.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('the entry builder', () => {
  it('emits the RFC 8785 bytes of the signed entry, which the strict reader accepts unchanged', () => {
    for (const u of [dispositionEntry(), refusalEntry(), errorEntry()]) {
      const built = buildEntry(u, SIGNER);
      expect(built.body).toBe(canonicalize(built.entry));
      const parsed = parseStoredEntry(built.body);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) {
        expect(parsed.value.entry).toEqual(built.entry);
        expect(parsed.value.entryHash).toBe(built.entryHash);
      }
    }
  });

  it('signs the domain prefix followed by the canonical bytes of the entry without its signature', () => {
    const built = buildEntry(dispositionEntry(), SIGNER);
    const { signature, ...unsigned } = built.entry;
    const message = Buffer.concat([
      Buffer.from(ENTRY_SIGNATURE_DOMAIN, 'utf8'),
      Buffer.from(canonicalize(unsigned) as string, 'utf8'),
    ]);
    expect(Buffer.from(entrySigningMessage(built.entry)).equals(message)).toBe(true);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyEntrySignature(built.entry, KEYS.publicKey)).toBe(true);
    expect(verifyEntrySignature(built.entry, KEYS.publicKey, 'noble')).toBe(true);
    expect(verifyEntrySignature(built.entry, OTHER_KEYS.publicKey)).toBe(false);
  });

  it('computes the entry hash as the RFC 9162 leaf hash SHA-256(0x00 || body)', () => {
    const built = buildEntry(dispositionEntry(), SIGNER);
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(built.body, 'utf8')]))
      .digest('hex');
    expect(built.entryHash).toBe(expected);
    expect(entryHashOf(built.body)).toBe(expected);
  });

  it('checks the disposition digest against the RFC 8785 bytes of the embedded disposition', () => {
    expect(() => buildEntry(dispositionEntry({ dispositionDigest: sha256Hex('other') }), SIGNER)).toThrow(
      EntryInvariantError,
    );
  });

  it('accepts exactly the digest the evaluator writes (canonicalDisposition), for text that needs escapes or is not ASCII', () => {
    for (const name of ['Review', 'ÄÖü 承認', 'quote " back\\slash', 'tab\tnew\nline\u0001', 'emoji 😀', '\u2028']) {
      const disposition: Disposition = {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [{ kind: 'queue', name }] },
      };
      const evaluatorDigest = sha256Hex(canonicalDisposition(disposition));
      const built = buildEntry(dispositionEntry({ disposition, dispositionDigest: evaluatorDigest }), SIGNER);
      expect(parseStoredEntry(built.body).ok).toBe(true);
      const renamed: Disposition = {
        ...disposition,
        handoff: { ...disposition.handoff, routes: [{ kind: 'queue', name: `${name}.` }] },
      };
      const other = sha256Hex(canonicalDisposition(renamed));
      expect(() => buildEntry(dispositionEntry({ disposition, dispositionDigest: other }), SIGNER)).toThrow(
        /dispositionDigest/,
      );
    }
  });

  it('checks the embedded disposition against Core §8.3 invariants', () => {
    const bad = { kind: 'outcome', outcomeId: 'approve', reasons: ['unknown'], handoff: { state: 'none' } };
    expect(() =>
      buildEntry(
        dispositionEntry({ disposition: bad, dispositionDigest: sha256Hex(canonicalize(bad) as string) }),
        SIGNER,
      ),
    ).toThrow(/8\.3/);
  });

  const broken: [string, Partial<Record<string, unknown>>][] = [
    ['a float', { work: 1.5 }],
    ['an integer beyond 2^53−1', { workBudget: 2 ** 53 }],
    ['a negative sequence number', { seq: -1 }],
    ['a previous hash at seq 0', { prevHash: sha256Hex('x') }],
    ['no previous hash after seq 0', { seq: 3 }],
    ['an upper-case digest', { requestDigest: sha256Hex('x').toUpperCase() }],
    ['a non-ASCII correlation member name', { correlation: { tenänt: 'x' } }],
    ['a lone surrogate in a string', { requestId: 'req-\ud800' }],
    ['a time that is not RFC 3339 UTC', { time: '2026-12-02 13:45:00' }],
    ['a time with an offset instead of Z', { time: '2026-12-02T13:45:00+01:00' }],
    ['February 30th', { time: '2026-02-30T00:00:00Z' }],
    ['unsorted supported extensions', { supportedExtensions: ['b', 'a'] }],
    ['duplicate supported extensions', { supportedExtensions: ['a', 'a'] }],
    ['an unknown member', { note: 'x' }],
    ['a missing pack id for a disposition', { pack: { digest: sha256Hex('p') } }],
    ['an empty request id', { requestId: '' }],
    ['a key id of the wrong shape', { keyId: 'ed25519:ABC' }],
    ['a log id with a slash', { logId: 'a/b' }],
    ['another format version', { format: 'docket.ledger-entry/4' }],
  ];
  for (const [what, over] of broken) {
    it(`refuses an entry with ${what}`, () => {
      expect(() => buildEntry(dispositionEntry(over), SIGNER)).toThrow(EntryInvariantError);
    });
  }

  it('refuses an admission refusal that charges work or has an undocumented code', () => {
    expect(() => buildEntry(refusalEntry({ work: 1 }), SIGNER)).toThrow(/no work/);
    expect(() => buildEntry(refusalEntry({ refusal: { code: 'because', message: 'x' } }), SIGNER)).toThrow(
      /refusal code/,
    );
  });

  it('refuses an evaluation error whose class is not a Core §8.4 class', () => {
    expect(() =>
      buildEntry(errorEntry({ error: { class: 'oops', phase: 'preflight', code: 'x', message: '' } }), SIGNER),
    ).toThrow(/8\.4/);
  });

  it('refuses to sign with a key other than the one the entry names', () => {
    expect(() => buildEntry(dispositionEntry(), signerFromKeyPair(OTHER_KEYS))).toThrow(/keyId/);
  });

  it('never serializes or prints the private key of a signer or a key pair', () => {
    const secretHex = toHex(KEYS.secretKey);
    const secretList = Array.from(KEYS.secretKey).join(',');
    for (const shown of [
      JSON.stringify(SIGNER),
      JSON.stringify(KEYS),
      inspect(SIGNER, { depth: 5 }),
      inspect(KEYS, { depth: 5 }),
      inspect({ k: KEYS }, { depth: 5 }),
    ]) {
      expect(shown).not.toContain(secretHex);
      expect(shown.replace(/\s/g, '')).not.toContain(secretList);
    }
    expect(JSON.stringify(KEYS)).toContain(toHex(KEYS.publicKey));
    const text = JSON.stringify(SIGNER);
    expect(text).not.toContain(toHex(KEYS.secretKey));
    expect(JSON.stringify(buildEntry(dispositionEntry(), SIGNER))).not.toContain(toHex(KEYS.secretKey));
  });

  it('caps a long error message at a code point boundary within the byte limit', () => {
    const capped = capMessage('é'.repeat(2000), 1024);
    expect(Buffer.byteLength(capped, 'utf8')).toBeLessThanOrEqual(1024);
    expect(capped.endsWith('...')).toBe(true);
    expect(capMessage('short')).toBe('short');
    expect(() =>
      buildEntry(
        errorEntry({
          error: { class: 'malformed-input', phase: 'preflight', code: 'x', message: capMessage('x'.repeat(5000)) },
        }),
        SIGNER,
      ),
    ).not.toThrow();
  });
});

describe('the strict entry reader', () => {
  const body = buildEntry(dispositionEntry(), SIGNER).body;

  const expectMalformed = (bytes: string | Uint8Array): void => {
    const r = parseStoredEntry(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('malformed');
  };

  it('refuses bytes that are valid JSON but not canonical (whitespace, member order, escapes)', () => {
    expectMalformed(JSON.stringify(JSON.parse(body), null, 1));
    const obj = JSON.parse(body) as Record<string, unknown>;
    const reordered = JSON.stringify({ signature: obj.signature, ...obj });
    expect(reordered).not.toBe(body);
    expectMalformed(reordered);
    expectMalformed(body.replace('"req-1"', '"req\\u002d1"'));
    expectMalformed(`${body}\n`);
  });

  it('refuses duplicate member names even when the last copy would give the canonical value', () => {
    expectMalformed(body.replace('{"correlation"', '{"correlation":null,"correlation"'));
  });

  it('refuses a lone surrogate escape and invalid UTF-8', () => {
    expectMalformed(body.replace('"req-1"', '"req-\\ud800"'));
    const bytes = utf8(body);
    const bad = new Uint8Array(bytes.length + 1);
    bad.set(bytes.subarray(0, 10));
    bad[10] = 0xff;
    bad.set(bytes.subarray(10), 11);
    expectMalformed(bad);
  });

  it('refuses a number spelled as a float or exponent even when its value is an integer', () => {
    expectMalformed(body.replace('"work":42', '"work":42.0'));
    expectMalformed(body.replace('"work":42', '"work":4.2e1'));
  });

  it('refuses an appended member even when the result is canonical', () => {
    const obj = JSON.parse(body) as Record<string, unknown>;
    expectMalformed(canonicalize({ ...obj, extra: 1 }) as string);
  });

  it('reports another entry format version as unsupported-version, not malformed', () => {
    const obj = JSON.parse(body) as Record<string, unknown>;
    const r = parseStoredEntry(canonicalize({ ...obj, format: 'docket.ledger-entry/4' }) as string);
    expect(r.ok ? 'ok' : r.error.code).toBe('unsupported-version');
  });

  it('cuts the exact signed message out of the stored bytes, even when a correlation member is named signature', () => {
    for (const u of [
      dispositionEntry(),
      dispositionEntry({ correlation: { a: 'x', signature: ',"signature":"x', zzz: 'signature' } }),
      refusalEntry(),
      errorEntry({ supportedExtensions: ['signature'] }),
    ]) {
      const built = buildEntry(u, SIGNER);
      const parsed = parseStoredEntry(built.body);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(Buffer.from(parsed.value.signingMessage).equals(Buffer.from(entrySigningMessage(built.entry)))).toBe(true);
      expect(verifyParsedEntrySignature(parsed.value, KEYS.publicKey)).toBe(true);
      expect(verifyParsedEntrySignature(parsed.value, OTHER_KEYS.publicKey)).toBe(false);
    }
  });

  it('detects an edited signed body through the signature', () => {
    const edited = body.replace('"work":42', '"work":43');
    const r = parseStoredEntry(edited);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(verifyEntrySignature(r.value.entry, KEYS.publicKey)).toBe(false);
      expect(verifyParsedEntrySignature(r.value, KEYS.publicKey)).toBe(false);
    }
  });
});
