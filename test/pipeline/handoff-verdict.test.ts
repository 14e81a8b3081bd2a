import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildEntry } from '../../core/ledger/entries/entry.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { handoffId, handoffMessageBytes } from '../../core/pipeline/handoff-message.js';
import {
  HANDOFF_REJECTIONS,
  verifyHandoff,
  type HandoffRejection,
  type HandoffVerdict,
} from '../../core/pipeline/handoff-verdict.js';
import { dispositionEntry, KEYS, OTHER_KEYS } from '../ledger/fixtures.js';
import { DIRECT, NO_HANDOFF, POLICY, ROUTED, signedDisposition, TARGETED } from './handoff-fixtures.js';

const enc = new TextEncoder();
const genuine = signedDisposition(ROUTED);
const oversight = handoffMessageBytes({
  entryBody: genuine.body,
  routeIndex: 1,
  shape: 'route',
  destination: 'configured',
  target: { kind: 'human-role', name: 'Oversight' },
}).body;

/** The message re-serialized canonically after `change` edits its members (what an attacker can always do). */
function edited(body: string, change: (m: Record<string, unknown>) => void): string {
  const m = JSON.parse(body) as Record<string, unknown>;
  change(m);
  return canonicalize(m) as string;
}
const verdictOf = (body: string, o = {}): HandoffVerdict => verifyHandoff(enc.encode(body), POLICY, o);
const reasonOf = (body: string, o = {}): HandoffRejection | 'ok' => {
  const v = verdictOf(body, o);
  return v.ok ? 'ok' : v.reason;
};

/** A disposition entry signed with a key the policy does not pin, while naming the pinned key id. */
function forgedEntryText(disposition = ROUTED): string {
  const forger = signerFromKeyPair(OTHER_KEYS);
  return buildEntry(
    dispositionEntry({
      requestId: 'req-never-recorded',
      disposition,
      dispositionDigest: sha256Hex(canonicalize(disposition) as string),
    }),
    { keyId: KEYS.keyId, sign: (m) => forger.sign(m) },
  ).body;
}

describe('verifying a handoff message against a trust policy', () => {
  it('accepts every genuine handoff the pipeline builds, and reads its facts from the signed entry', () => {
    const v = verdictOf(oversight);
    if (!v.ok) throw new Error(`${v.reason}: ${v.detail}`);
    expect(v.handoff.requestId).toBe('req-1');
    expect(v.handoff.target).toEqual({ kind: 'human-role', name: 'Oversight' });
    const targeted = handoffMessageBytes({
      entryBody: signedDisposition(TARGETED).body,
      routeIndex: 0,
      shape: 'target',
      destination: 'configured',
      target: { kind: 'queue', name: 'Review' },
    });
    const direct = handoffMessageBytes({
      entryBody: signedDisposition(DIRECT).body,
      routeIndex: 0,
      shape: 'no-destination',
      destination: 'no-destination',
    });
    expect([reasonOf(targeted.body), reasonOf(direct.body)]).toEqual(['ok', 'ok']);
    expect(reasonOf(oversight, { backend: 'noble' })).toBe('ok');
  });

  it('refuses a message pointing at an entry that was never recorded: its signature is not the pinned key’s', () => {
    const forged = edited(oversight, (m) => {
      m.entry = forgedEntryText();
    });
    // The forger recomputes the unkeyed handoff id, so only the signature can tell.
    const withId = edited(forged, (m) => {
      const h = sha256Hex(Buffer.concat([Buffer.of(0), Buffer.from(m.entry as string)]));
      m.handoffId = handoffId(h, 1);
    });
    expect(reasonOf(withId)).toBe('signature-mismatch');
    expect(reasonOf(forged)).toBe('handoff-id-mismatch');
  });

  it('refuses an entry signed by a key the policy does not pin, or outside the key’s range', () => {
    const unknown = handoffMessageBytes({
      entryBody: signedDisposition(ROUTED, {}, OTHER_KEYS).body,
      routeIndex: 0,
      shape: 'route',
      destination: 'configured',
      target: { kind: 'queue', name: 'Review' },
    }).body;
    expect(reasonOf(unknown)).toBe('unknown-key');
    const retired = {
      ...POLICY,
      keys: [{ ...POLICY.keys[0]!, validity: [{ logId: 'log-0', fromSeq: 1, toSeq: null }] }],
    };
    const v = verifyHandoff(enc.encode(oversight), retired);
    expect(v.ok ? 'ok' : v.reason).toBe('key-not-valid-at-seq');
  });

  it('refuses a genuine message whose route was changed, unless the change names another selected route', () => {
    expect(reasonOf(edited(oversight, (m) => (m.routeIndex = 0)))).toBe('route-mismatch');
    expect(reasonOf(edited(oversight, (m) => (m.target = { kind: 'queue', name: 'Review' })))).toBe('route-mismatch');
    expect(reasonOf(edited(oversight, (m) => (m.routeIndex = 7)))).toBe('route-mismatch');
    expect(reasonOf(edited(oversight, (m) => (m.shape = 'target')))).toBe('route-mismatch');
    // Route 0 with its own target and a recomputed id is a genuine handoff for the Review route…
    const moved = edited(oversight, (m) => {
      m.routeIndex = 0;
      m.target = { kind: 'queue', name: 'Review' };
      m.handoffId = handoffId(genuine.entryHash, 0);
    });
    expect(reasonOf(moved)).toBe('ok');
    // …which the oversight queue's consumer refuses when it says which targets its queue serves.
    const onOversight = { expectedTargets: [{ kind: 'human-role', name: 'Oversight' }] };
    expect(reasonOf(moved, onOversight)).toBe('wrong-queue');
    expect(reasonOf(oversight, onOversight)).toBe('ok');
  });

  it('refuses a genuine handoff on a queue serving a target of the same name but another kind', () => {
    // A target is its kind and its name (spec §6.7): queue:Oversight is not human-role:Oversight.
    expect(reasonOf(oversight, { expectedTargets: [{ kind: 'queue', name: 'Oversight' }] })).toBe('wrong-queue');
    expect(reasonOf(oversight, { expectedTargets: [{ kind: 'human-role', name: 'Oversight' }] })).toBe('ok');
  });

  it('refuses a genuine handoff on a route queue its route does not resolve to, by the queue key alone', () => {
    const routeQueues = {
      'queue:Review': 'review',
      'human-role:Oversight': 'oversight',
      'human-role:Steward': 'steward',
    };
    const on = (key: string) => ({ routeQueue: { key, routeQueues } });
    expect(reasonOf(oversight, on('oversight'))).toBe('ok');
    expect(reasonOf(oversight, on('steward'))).toBe('wrong-queue');
    expect(reasonOf(oversight, on('unrouted'))).toBe('wrong-queue');
    const direct = handoffMessageBytes({
      entryBody: signedDisposition(DIRECT).body,
      routeIndex: 0,
      shape: 'no-destination',
      destination: 'no-destination',
    }).body;
    // A destinationless handoff belongs on the unrouted queue only.
    expect([reasonOf(direct, on('unrouted')), reasonOf(direct, on('oversight'))]).toEqual(['ok', 'wrong-queue']);
    // A target with no configured queue is sent to unrouted (handoff-plan), so that is where it belongs.
    const unmapped = { routeQueue: { key: 'unrouted', routeQueues: { 'queue:Review': 'review' } } };
    expect(reasonOf(oversight, unmapped)).toBe('ok');
    // A configuration that maps no queue for the target sends it to unrouted: it is wrong on every route queue.
    expect(reasonOf(oversight, { routeQueue: { key: 'oversight', routeQueues: {} } })).toBe('wrong-queue');
    // --expect-target narrows further on the right queue.
    const narrowed = { ...on('oversight'), expectedTargets: [{ kind: 'queue' as const, name: 'Review' }] };
    expect(reasonOf(oversight, narrowed)).toBe('wrong-queue');
    const v = verdictOf(oversight, on('steward'));
    expect(v.ok ? '' : v.detail).toBe(
      'a handoff for human-role:Oversight belongs on route queue oversight, not steward',
    );
  });

  it('refuses a genuine message whose entry bytes were changed, however carefully', () => {
    const outcome = (text: string): string => text.replace('"kind":"unresolved"', '"kind":"outcome","outcomeId":"x"');
    // The disposition changed but its digest did not: the strict entry reader refuses it.
    expect(reasonOf(edited(oversight, (m) => (m.entry = outcome(m.entry as string))))).toBe('entry-malformed');
    // Digest and handoff id fixed up too: only the signature tells.
    const routes = ROUTED.handoff.routes!.map((t) => (t.name === 'Oversight' ? { ...t, name: 'Audit' } : t));
    const changed: typeof ROUTED = { ...ROUTED, handoff: { ...ROUTED.handoff, routes } };
    const fixed = edited(oversight, (m) => {
      const text = (m.entry as string)
        .replace(sha256Hex(canonicalize(ROUTED) as string), sha256Hex(canonicalize(changed) as string))
        .replace(canonicalize(ROUTED) as string, canonicalize(changed) as string);
      m.entry = text;
      m.target = { kind: 'human-role', name: 'Audit' };
      m.handoffId = handoffId(sha256Hex(Buffer.concat([Buffer.of(0), Buffer.from(text)])), 1);
    });
    expect(reasonOf(fixed)).toBe('signature-mismatch');
    expect(reasonOf(edited(oversight, (m) => (m.entry = `${m.entry as string} `)))).toBe('entry-malformed');
    expect(reasonOf(edited(oversight, (m) => (m.handoffId = handoffId(genuine.entryHash, 2))))).toBe(
      'handoff-id-mismatch',
    );
  });

  it('refuses a genuine signed entry that requests no handoff', () => {
    const none = signedDisposition(NO_HANDOFF);
    const body = edited(oversight, (m) => {
      m.entry = none.body;
      m.handoffId = handoffId(none.entryHash, 1);
    });
    expect(reasonOf(body)).toBe('not-a-handoff');
  });

  it('refuses an entry written by an evaluator build the policy does not accept', () => {
    const v = verifyHandoff(enc.encode(oversight), { ...POLICY, evaluatorBuilds: [] });
    expect(v.ok ? 'ok' : v.reason).toBe('evaluator-build-not-allowed');
  });

  it('refuses an entry evaluated under draft grammar the policy does not permit for its log, and accepts it once permitted', () => {
    const q = 'rfc0008-quantifiers';
    const draft = signedDisposition(ROUTED, { format: 'docket.ledger-entry/2', draftFeatures: [q] });
    const body = handoffMessageBytes({
      entryBody: draft.body,
      routeIndex: 1,
      shape: 'route',
      destination: 'configured',
      target: { kind: 'human-role', name: 'Oversight' },
    }).body;
    expect(reasonOf(body)).toBe('draft-features-not-allowed');
    const permitting = {
      ...POLICY,
      format: 'docket.trust-policy/3' as const,
      draftFeatures: [{ logId: 'log-0', allow: [q] }],
    };
    expect(verifyHandoff(enc.encode(body), permitting).ok).toBe(true);
  });

  it('refuses the old coordinates-only format, messages that are not JSON, and unknown members', () => {
    const old = canonicalize({ format: 'docket.handoff/1', handoffId: handoffId(genuine.entryHash, 0) }) as string;
    expect(reasonOf(old)).toBe('unsupported-format');
    expect(reasonOf('{"format":')).toBe('message-malformed');
    expect(reasonOf(edited(oversight, (m) => (m.note = 'trust me')))).toBe('message-malformed');
    expect(reasonOf(JSON.stringify(JSON.parse(oversight), null, 2))).toBe('message-malformed');
  });

  it('has a test above for every reason code it can return', () => {
    // The list is the documented contract (docs/pipeline.md); a new code must come with a case here.
    expect(HANDOFF_REJECTIONS).toEqual([
      'message-malformed',
      'unsupported-format',
      'entry-malformed',
      'not-a-handoff',
      'route-mismatch',
      'handoff-id-mismatch',
      'unknown-key',
      'key-not-valid-at-seq',
      'signature-mismatch',
      'evaluator-build-not-allowed',
      'draft-features-not-allowed',
      'wrong-queue',
    ]);
  });
});
