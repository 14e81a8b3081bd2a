/** Signed disposition entries and a trust policy for handoff message tests (fixed test keys, never real secrets). */
import canonicalize from 'canonicalize';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildEntry, type BuiltEntry } from '../../core/ledger/entries/entry.js';
import { signerFromKeyPair, type Ed25519KeyPair } from '../../core/ledger/primitives/signature.js';
import type { TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import type { Disposition } from '../../core/evaluate/types.js';
import { HandoffRepeats } from '../../core/pipeline/handoff-repeats.js';
import { BUILD_DIGEST, dispositionEntry, KEYS } from '../ledger/fixtures.js';

export const ROUTED: Disposition = {
  kind: 'unresolved',
  reasons: ['unknown'],
  handoff: {
    state: 'requested',
    triggeredBy: ['unknown'],
    routes: [
      { kind: 'queue', name: 'Review' },
      { kind: 'human-role', name: 'Oversight' },
      { kind: 'queue', name: 'Review' },
    ],
  },
};
export const TARGETED: Disposition = {
  kind: 'unresolved',
  reasons: ['no-match'],
  handoff: { state: 'requested', triggeredBy: ['no-match'] },
};
export const DIRECT: Disposition = {
  kind: 'unresolved',
  reasons: ['exception-escalation'],
  handoff: { state: 'requested', triggeredBy: ['exception-escalation'] },
};
export const NO_HANDOFF: Disposition = {
  kind: 'outcome',
  outcomeId: 'approve',
  reasons: [],
  handoff: { state: 'none', routes: [] },
};

/** A disposition entry carrying `disposition`, signed by `keys` (the pinned test key by default). */
export function signedDisposition(
  disposition: Disposition,
  over: Partial<Record<string, unknown>> = {},
  keys: Ed25519KeyPair = KEYS,
): BuiltEntry {
  return buildEntry(
    dispositionEntry({
      disposition,
      dispositionDigest: sha256Hex(canonicalize(disposition) as string),
      keyId: keys.keyId,
      ...over,
    }),
    signerFromKeyPair(keys),
  );
}

/** Pins KEYS for log-0 from seq 0 on, and the test evaluator build. */
export const POLICY: TrustPolicy = {
  format: 'docket.trust-policy/2',
  logs: ['log-0'],
  keys: [
    {
      keyId: KEYS.keyId,
      publicKey: KEYS.publicKey,
      roles: ['entries'],
      validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
    },
  ],
  authorities: [{ environment: 'test', table: 'docket-test-ledger' }],
  evaluatorBuilds: [BUILD_DIGEST],
};

/** For a sequence of verified handoff ids: 'first' or 'repeat' each, as one consumer run judges them. */
export function deliveriesOf(handoffIds: readonly string[]): ('first' | 'repeat')[] {
  const r = new HandoffRepeats();
  return handoffIds.map((id) => (r.first(id) ? 'first' : 'repeat'));
}
