import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { worstCaseEntryBytes } from '../../core/ledger/entries/worst-case-entry.js';
import {
  buildEntry,
  EntryInvariantError,
  parseStoredEntry,
  verifyParsedEntrySignature,
} from '../../core/ledger/entries/entry.js';
import { ENTRY_FORMAT, ENTRY_FORMAT_V2, entryFormatFor } from '../../core/ledger/entries/entry-types.js';
import { readLedgerExport } from '../../core/ledger/export/export.js';
import { readLedgerExportFast } from '../../core/ledger/verify/fast-read.js';
import { signEd25519 } from '../../core/ledger/primitives/signature.js';
import { entrySigningMessage } from '../../core/ledger/entries/entry.js';
import { toHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { dispositionEntry, errorEntry, KEYS, refusalEntry, SIGNER } from './fixtures.js';

const Q = 'rfc0008-quantifiers';
const v2 = (over: Record<string, unknown> = {}) =>
  dispositionEntry({ format: ENTRY_FORMAT_V2, draftFeatures: [Q], ...over });
/** Signs any entry-shaped object without the builder's checks, so the reader alone must refuse it. */
const signedAnyway = (o: Record<string, unknown>): string => {
  const sig = toHex(signEd25519(entrySigningMessage(o as never), KEYS.secretKey));
  return canonicalize({ ...o, signature: sig }) as string;
};

describe('ledger entry format /2 (draft features recorded)', () => {
  it('picks version 1 without draft features and version 2 with some', () => {
    expect(entryFormatFor(undefined)).toBe(ENTRY_FORMAT);
    expect(entryFormatFor([])).toBe(ENTRY_FORMAT);
    expect(entryFormatFor([Q])).toBe(ENTRY_FORMAT_V2);
  });

  it('builds a /2 entry whose signed body names the features, and reads it back with a valid signature', () => {
    for (const u of [
      v2(),
      errorEntry({ format: ENTRY_FORMAT_V2, draftFeatures: [Q] }),
      refusalEntry({ format: ENTRY_FORMAT_V2, draftFeatures: [Q] }),
    ]) {
      const built = buildEntry(u, SIGNER);
      expect(built.body).toContain(`"draftFeatures":["${Q}"]`);
      expect(built.body).toContain('"format":"docket.ledger-entry/2"');
      const r = parseStoredEntry(built.body);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.entry.draftFeatures).toEqual([Q]);
      expect(verifyParsedEntrySignature(r.value, KEYS.publicKey)).toBe(true);
    }
  });

  it('keeps a version 1 entry free of the member: its bytes are what they were before version 2 existed', () => {
    const body = buildEntry(dispositionEntry(), SIGNER).body;
    expect(body).not.toContain('draftFeatures');
    expect(body).toContain('"format":"docket.ledger-entry/1"');
    // The /2 body is the /1 body with exactly the two members changed: nothing else moves.
    const one = JSON.parse(body) as Record<string, unknown>;
    const two = JSON.parse(buildEntry(v2(), SIGNER).body) as Record<string, unknown>;
    const { draftFeatures, format, signature: _s2, ...rest2 } = two;
    const { format: _f, signature: _s1, ...rest1 } = one;
    expect(rest2).toEqual(rest1);
    expect([draftFeatures, format]).toEqual([[Q], ENTRY_FORMAT_V2]);
  });

  const broken: [string, Record<string, unknown>][] = [
    ['a version 1 entry with a draftFeatures member', { format: ENTRY_FORMAT, draftFeatures: [Q] }],
    ['a version 2 entry without the member', { format: ENTRY_FORMAT_V2, draftFeatures: undefined }],
    ['a version 2 entry with an empty list', { draftFeatures: [] }],
    ['unsorted features', { draftFeatures: ['rfc0008-quantifiers', 'rfc0001-a'] }],
    ['a feature named twice', { draftFeatures: [Q, Q] }],
    ['an upper-case feature name', { draftFeatures: ['RFC0008-quantifiers'] }],
    ['a feature name with a space', { draftFeatures: ['rfc0008 quantifiers'] }],
    ['a feature name of 65 bytes', { draftFeatures: ['a'.repeat(65)] }],
    ['seventeen features', { draftFeatures: Array.from({ length: 17 }, (_, i) => `f${String(i).padStart(2, '0')}`) }],
    ['a feature that is not a string', { draftFeatures: [8] }],
  ];
  for (const [what, over] of broken) {
    it(`the builder refuses ${what}, and the strict reader refuses it even validly signed`, () => {
      const u = { ...v2(), ...over } as Record<string, unknown>;
      if (over.draftFeatures === undefined && 'draftFeatures' in over) delete u.draftFeatures;
      expect(() => buildEntry(u as never, SIGNER)).toThrow(EntryInvariantError);
      const r = parseStoredEntry(signedAnyway(u));
      expect(r.ok ? 'ok' : r.error.code).toBe('malformed');
    });
  }

  it('reads version 4 as unsupported-version, not malformed', () => {
    const r = parseStoredEntry(signedAnyway({ ...v2(), format: 'docket.ledger-entry/4' }));
    expect(r.ok ? 'ok' : r.error.code).toBe('unsupported-version');
  });

  it('accepts a well-formed feature name this evaluator does not know (the format is open; replay judges it)', () => {
    const r = parseStoredEntry(buildEntry(v2({ draftFeatures: [Q, 'rfc9999-future'] }), SIGNER).body);
    expect(r.ok).toBe(true);
  });

  it('the signature covers the member: rewriting the list or dropping it to pass as version 1 breaks it', () => {
    const body = buildEntry(v2(), SIGNER).body;
    const o = JSON.parse(body) as Record<string, unknown>;
    const rewritten = canonicalize({ ...o, draftFeatures: ['rfc0009-other'] }) as string;
    const { draftFeatures: _d, ...rest } = o;
    const downgraded = canonicalize({ ...rest, format: ENTRY_FORMAT }) as string;
    for (const b of [rewritten, downgraded]) {
      const r = parseStoredEntry(b);
      expect(r.ok).toBe(true);
      if (r.ok) expect(verifyParsedEntrySignature(r.value, KEYS.publicKey)).toBe(false);
    }
  });

  it('the fast export reader reads a /2 entry exactly as the strict one does', () => {
    const body = buildEntry(v2(), SIGNER).body;
    const parsed = JSON.parse(body) as { requestId: string; kind: string };
    const line = canonicalize({
      body,
      logId: 'log-0',
      projection: { entryHash: 'a'.repeat(64), kind: parsed.kind, requestId: parsed.requestId },
      seq: 0,
    }) as string;
    const file = utf8Bytes(`{"format":"docket.ledger-export/1","origin":null}\n${line}\n`);
    expect(readLedgerExportFast(file)).toEqual(readLedgerExport(file));
    expect(readLedgerExportFast(file).ok).toBe(true);
  });

  it('admission counts the member in the worst-case entry only when the deployment enables features', () => {
    const input = {
      requestId: 'r',
      correlation: null,
      pack: { id: 'p', version: '1', specVersion: '0.3.0', outcomeIds: ['a'] },
      logIds: ['log-0'],
      supportedExtensions: [],
      evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'a'.repeat(64) },
    };
    const without = worstCaseEntryBytes(input);
    expect(worstCaseEntryBytes({ ...input, draftFeatures: [] })).toBe(without);
    // ,"draftFeatures":["rfc0008-quantifiers"] is 40 bytes.
    expect(worstCaseEntryBytes({ ...input, draftFeatures: [Q] })).toBe(without + 40);
  });
});
