import { describe, expect, it } from 'vitest';
import { signRaw } from '../../conformance/ledger/fixtures.js';
import { buildEntry, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { dispositionEntry, KEYS, SIGNER } from './fixtures.js';

// A stored entry the checked fast path proves canonical has its disposition digest checked over JSON.stringify's
// text of the disposition (docs/adr/0494-handoff-consumer-reads-body-text.md); these cases show the check still bites
// there and agrees with the strict path.
const disposition = {
  kind: 'unresolved',
  reasons: ['unknown'],
  handoff: {
    state: 'requested',
    triggeredBy: ['unknown'],
    routes: [{ kind: 'queue', name: 'Revue "é" \\ ☃ \u2028' }],
  },
};
const signed = (digest: string): string =>
  signRaw(dispositionEntry({ kind: 'disposition', disposition, dispositionDigest: digest }) as never, KEYS);

describe('reading a stored entry the fast path proves canonical', () => {
  it('accepts a disposition whose digest is over its RFC 8785 bytes, escapes and non-ASCII text included', () => {
    const body = buildEntry(
      dispositionEntry({ disposition, dispositionDigest: sha256Hex(canonicalText(disposition)) }),
      SIGNER,
    ).body;
    const read = parseStoredEntry(body);
    expect(read.ok ? read.value.entry.requestId : read.error.detail).toBe('req-1');
  });

  it('refuses a signed canonical entry whose disposition digest is not that of its disposition', () => {
    const body = signed(sha256Hex('another disposition'));
    expect(JSON.stringify(JSON.parse(body))).toBe(body); // canonical, so the fast path reads it
    const read = parseStoredEntry(body);
    expect(read.ok ? 'ok' : read.error.detail).toMatch(/dispositionDigest is the SHA-256/);
  });
});
