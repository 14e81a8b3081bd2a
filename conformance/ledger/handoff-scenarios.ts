/**
 * The forged-handoff corpus: handoff messages (docket.handoff/2) as an outsider with SendMessage on a route queue
 * could write them, next to genuine ones, each with the verdict written here by hand from the rules in
 * docs/pipeline.md "Verifying a handoff" — never copied from the verifier's output. Changing an expected verdict is
 * a format change (README.md).
 *
 * Files: `handoffs/<scenario>/policy.json` (docket.trust-policy/1), `messages.jsonl` (one message per line, the
 * exact bytes a consumer receives) and `expected.json` (per line: a label, the verifier options — the queue's
 * expected targets when the case is about the queue — and the verdict, "ok" or a reason code).
 *
 * Keys: K1 is pinned for log-a from seq 0 to 99 (retired after), KF is a forger's key nobody pins.
 */
import canonicalize from 'canonicalize';
import { canonicalDisposition } from '../../core/evaluate/disposition.js';
import type { Disposition, HandoffTarget } from '../../core/evaluate/types.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { CHECKPOINT_SIGNATURE_DOMAIN, ED25519_L } from '../../core/ledger/primitives/signature.js';
import type { Ed25519KeyPair } from '../../core/ledger/primitives/signature.js';
import { handoffId } from '../../core/pipeline/handoff-message.js';
import type { HandoffRejection } from '../../core/pipeline/handoff-verdict.js';
import { K1, KF, OTHER_BUILD, policyText, signRaw, unsignedEntry } from './fixtures.js';

export interface HandoffCase {
  readonly label: string;
  /** The exact message bytes (one line of messages.jsonl; never contains a newline: RFC 8785 escapes it). */
  readonly message: string;
  readonly options?: {
    readonly expectedTargets?: readonly HandoffTarget[];
    readonly routeQueue?: { readonly key: string; readonly routeQueues: Readonly<Record<string, string>> };
  };
  readonly verdict: 'ok' | HandoffRejection;
  /** For a consumer run reading the scenario's lines in order: is this the first of its handoff id, or a repeat? */
  readonly delivery?: 'first' | 'repeat';
}

export interface HandoffScenario {
  readonly name: string;
  readonly description: string;
  readonly policy: string;
  readonly cases: readonly HandoffCase[];
}

const REVIEW: HandoffTarget = { kind: 'queue', name: 'Review' };
const OVERSIGHT: HandoffTarget = { kind: 'human-role', name: 'Oversight' };
const ROUTED: Disposition = {
  kind: 'unresolved',
  reasons: ['unknown'],
  handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [REVIEW, OVERSIGHT] },
};
const TARGETED: Disposition = {
  kind: 'unresolved',
  reasons: ['no-match'],
  handoff: { state: 'requested', triggeredBy: ['no-match'] },
};
const DIRECT: Disposition = {
  kind: 'unresolved',
  reasons: ['exception-escalation'],
  handoff: { state: 'requested', triggeredBy: ['exception-escalation'] },
};
const NONE: Disposition = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };

const POLICY = policyText(['log-a'], [{ keys: K1, validity: [{ logId: 'log-a', fromSeq: 0, toSeq: 99 }] }]);

/** A disposition entry's unsigned members at log-a/seq (prevHash is a placeholder: handoffs carry one entry). */
function dispositionMembers(seq: number, d: Disposition, over: Record<string, unknown> = {}): Record<string, unknown> {
  // Seq 0 of the base fixture is a disposition; the slot and request are then moved to `seq`.
  const base = unsignedEntry('log-a', 0, null, K1) as unknown as Record<string, unknown>;
  const requestId = `log-a-req-${seq}`;
  return {
    ...base,
    seq,
    prevHash: seq === 0 ? null : sha256Hex(`entry ${seq - 1}`),
    requestId,
    requestDigest: sha256Hex(`request ${requestId}`),
    disposition: d,
    dispositionDigest: sha256Hex(canonicalDisposition(d)),
    ...over,
  };
}

const signed = (members: Record<string, unknown>, keys: Ed25519KeyPair = K1, domain?: string): string =>
  signRaw(members, keys, domain);

interface Routing {
  readonly routeIndex: number;
  readonly shape: 'route' | 'target' | 'no-destination';
  readonly destination: 'configured' | 'unmapped-target' | 'no-destination';
  readonly target?: HandoffTarget;
}
const ROUTE_1: Routing = { routeIndex: 1, shape: 'route', destination: 'configured', target: OVERSIGHT };

/** A message as the pipeline would build it (the id derived from the carried bytes), without any check. */
function message(entry: string, r: Routing, id = handoffId(entryHashOf(entry), r.routeIndex)): string {
  return canonicalize({
    format: 'docket.handoff/2',
    handoffId: id,
    entry,
    routeIndex: r.routeIndex,
    shape: r.shape,
    destination: r.destination,
    ...(r.target ? { target: r.target } : {}),
  }) as string;
}

/** S + L: the same signature with a non-canonical scalar (RFC 8032 §5.1.7 rejects S ≥ L). */
function malleated(entry: string): string {
  const o = JSON.parse(entry) as Record<string, unknown>;
  const sig = Buffer.from(o.signature as string, 'hex');
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
  s += ED25519_L;
  for (let i = 32; i < 64; i++) {
    sig[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return canonicalize({ ...o, signature: sig.toString('hex') }) as string;
}

export function handoffScenarios(): HandoffScenario[] {
  const genuine = signed(dispositionMembers(3, ROUTED));
  const genuineMembers = JSON.parse(genuine) as Record<string, unknown>;
  const ghost = dispositionMembers(42, ROUTED, { requestId: 'never-recorded' });
  const redirected: Disposition = { ...ROUTED, handoff: { ...ROUTED.handoff, routes: [REVIEW, REVIEW] } };
  const redirectedMembers = {
    ...genuineMembers,
    disposition: redirected,
    dispositionDigest: sha256Hex(canonicalDisposition(redirected)),
  };
  const redirectedText = canonicalize(redirectedMembers) as string; // K1's signature over the original members
  const stale = canonicalize({ ...genuineMembers, disposition: redirected }) as string; // digest not updated
  const renamed = canonicalize({ ...genuineMembers, requestId: 'req-other' }) as string;
  const cases: HandoffCase[] = [
    { label: 'genuine routed handoff (route 1 of 2)', message: message(genuine, ROUTE_1), verdict: 'ok' },
    {
      label: 'genuine routed handoff read by the queue that serves its target',
      message: message(genuine, ROUTE_1),
      options: { expectedTargets: [OVERSIGHT] },
      verdict: 'ok',
    },
    {
      label: 'genuine targeted handoff (the target comes from the pack, not the entry)',
      message: message(signed(dispositionMembers(4, TARGETED)), {
        routeIndex: 0,
        shape: 'target',
        destination: 'configured',
        target: REVIEW,
      }),
      verdict: 'ok',
    },
    {
      label: 'genuine destinationless direct escalation',
      message: message(signed(dispositionMembers(5, DIRECT)), {
        routeIndex: 0,
        shape: 'no-destination',
        destination: 'no-destination',
      }),
      verdict: 'ok',
    },
    {
      label: 'an entry that was never recorded, naming the pinned key id but signed by the forger',
      message: message(signed({ ...ghost, keyId: K1.keyId }, KF), ROUTE_1),
      verdict: 'signature-mismatch',
    },
    {
      label: 'an entry that was never recorded, signed by the forger under its own key id',
      message: message(signed({ ...ghost, keyId: KF.keyId }, KF), ROUTE_1),
      verdict: 'unknown-key',
    },
    {
      label: 'the old coordinates-only format pointing at an entry that does not exist',
      message: canonicalize({
        format: 'docket.handoff/1',
        handoffId: handoffId('b'.repeat(64), 1),
        ledger: { logId: 'log-a', seq: 42, entryHash: 'b'.repeat(64) },
        requestId: 'never-recorded',
      }) as string,
      verdict: 'unsupported-format',
    },
    {
      label: 'a genuine message with its route index changed (it now selects another target)',
      message: message(genuine, { ...ROUTE_1, routeIndex: 0 }),
      verdict: 'route-mismatch',
    },
    {
      label: 'a genuine message with its target changed',
      message: message(genuine, { ...ROUTE_1, target: { kind: 'human-role', name: 'Auditor' } }),
      verdict: 'route-mismatch',
    },
    {
      label: 'a genuine message with its route index past the selected routes',
      message: message(genuine, { ...ROUTE_1, routeIndex: 2 }),
      verdict: 'route-mismatch',
    },
    {
      label: 'a genuine message moved consistently to the other selected route, on the queue of the first',
      message: message(genuine, { routeIndex: 0, shape: 'route', destination: 'configured', target: REVIEW }),
      options: { expectedTargets: [OVERSIGHT] },
      verdict: 'wrong-queue',
    },
    {
      label: 'genuine routed handoff read by a queue serving a target of the same name but another kind',
      message: message(genuine, ROUTE_1),
      options: { expectedTargets: [{ kind: 'queue', name: OVERSIGHT.name }] },
      verdict: 'wrong-queue',
    },
    {
      label: 'a genuine message with its handoff id changed',
      message: message(genuine, ROUTE_1, handoffId(entryHashOf(genuine), 0)),
      verdict: 'handoff-id-mismatch',
    },
    {
      label: 'the disposition redirected (both routes to Review), its digest and the handoff id recomputed',
      message: message(redirectedText, { ...ROUTE_1, target: REVIEW }),
      verdict: 'signature-mismatch',
    },
    {
      label: 'the disposition redirected without updating its digest',
      message: message(stale, { ...ROUTE_1, target: REVIEW }),
      verdict: 'entry-malformed',
    },
    {
      label: 'the request id changed, handoff id not recomputed',
      message: message(renamed, ROUTE_1, handoffId(entryHashOf(genuine), 1)),
      verdict: 'handoff-id-mismatch',
    },
    {
      label: 'the request id changed, handoff id recomputed',
      message: message(renamed, ROUTE_1),
      verdict: 'signature-mismatch',
    },
    {
      label: 'the genuine signature malleated (S + L)',
      message: message(malleated(genuine), ROUTE_1),
      verdict: 'signature-mismatch',
    },
    {
      label: 'the pinned key’s signature under the checkpoint domain',
      message: message(signed(dispositionMembers(3, ROUTED), K1, CHECKPOINT_SIGNATURE_DOMAIN), ROUTE_1),
      verdict: 'signature-mismatch',
    },
    {
      label: 'a genuine signature by the pinned key at a seq past its validity (a retired key)',
      message: message(signed(dispositionMembers(100, ROUTED)), ROUTE_1),
      verdict: 'key-not-valid-at-seq',
    },
    {
      label: 'a genuine signature by the pinned key on an entry from an evaluator build the policy does not accept',
      message: message(
        signed(
          dispositionMembers(6, ROUTED, {
            evaluator: { name: 'docket-evaluator', version: '0.0.9', buildDigest: OTHER_BUILD },
          }),
        ),
        ROUTE_1,
      ),
      verdict: 'evaluator-build-not-allowed',
    },
    {
      label: 'a genuine signed entry that requests no handoff',
      message: message(signed(dispositionMembers(7, NONE)), ROUTE_1),
      verdict: 'not-a-handoff',
    },
    {
      label: 'a genuine message with a member appended',
      message: canonicalize({ ...(JSON.parse(message(genuine, ROUTE_1)) as object), priority: 'urgent' }) as string,
      verdict: 'message-malformed',
    },
    {
      label: 'a genuine message whose entry text gained a space (no longer its exact stored bytes)',
      message: message(`${genuine} `, ROUTE_1, handoffId(entryHashOf(genuine), 1)),
      verdict: 'entry-malformed',
    },
    {
      label:
        'a genuine signature by the pinned key on a docket.ledger-entry/2 evaluated with rfc0008-quantifiers, which this /1 policy does not permit',
      message: message(
        signed(
          dispositionMembers(8, ROUTED, { format: 'docket.ledger-entry/2', draftFeatures: ['rfc0008-quantifiers'] }),
        ),
        ROUTE_1,
      ),
      verdict: 'draft-features-not-allowed',
    },
  ];
  return [
    misroutedScenario(genuine),
    {
      name: 'forged-handoff',
      description:
        'Messages an outsider with SendMessage on a route queue could write — entries never recorded, genuine messages with the route, the result, the request id or the signature changed, old-format coordinates — next to genuine handoffs.',
      policy: POLICY,
      cases,
    },
  ];
}

/**
 * Genuine handoffs copied onto route queues their routes do not resolve to, and repeated (ADR 0300). The route
 * configuration maps Review → review, Oversight → oversight and Steward → steward; unrouted holds the rest.
 */
function misroutedScenario(genuine: string): HandoffScenario {
  const routeQueues = {
    'queue:Review': 'review',
    'human-role:Oversight': 'oversight',
    'human-role:Steward': 'steward',
  };
  const on = (key: string) => ({ routeQueue: { key, routeQueues } });
  const oversight = message(genuine, ROUTE_1);
  const review = message(genuine, { routeIndex: 0, shape: 'route', destination: 'configured', target: REVIEW });
  const direct = message(signed(dispositionMembers(5, DIRECT)), {
    routeIndex: 0,
    shape: 'no-destination',
    destination: 'no-destination',
  });
  const unmapped = message(signed(dispositionMembers(4, TARGETED)), {
    routeIndex: 0,
    shape: 'target',
    destination: 'unmapped-target',
    target: { kind: 'system', name: 'Archive' },
  });
  const cases: HandoffCase[] = [
    {
      label: 'the genuine Oversight handoff on the oversight queue',
      message: oversight,
      options: on('oversight'),
      verdict: 'ok',
      delivery: 'first',
    },
    {
      label: 'the same genuine Oversight handoff delivered again on the oversight queue',
      message: oversight,
      options: on('oversight'),
      verdict: 'ok',
      delivery: 'repeat',
    },
    {
      label: 'the genuine Review route of the same entry, a distinct handoff id, on the review queue',
      message: review,
      options: on('review'),
      verdict: 'ok',
      delivery: 'first',
    },
    {
      label: 'the genuine Oversight handoff a third time',
      message: oversight,
      options: on('oversight'),
      verdict: 'ok',
      delivery: 'repeat',
    },
    {
      label: 'the genuine Oversight handoff copied unchanged onto the steward queue',
      message: oversight,
      options: on('steward'),
      verdict: 'wrong-queue',
    },
    {
      label: 'the genuine Oversight handoff copied onto the review queue, which serves the entry’s other route',
      message: oversight,
      options: on('review'),
      verdict: 'wrong-queue',
    },
    {
      label: 'the genuine Oversight handoff copied onto the unrouted queue',
      message: oversight,
      options: on('unrouted'),
      verdict: 'wrong-queue',
    },
    {
      label: 'a genuine destinationless escalation on the unrouted queue',
      message: direct,
      options: on('unrouted'),
      verdict: 'ok',
      delivery: 'first',
    },
    {
      label: 'a genuine destinationless escalation copied onto the oversight queue',
      message: direct,
      options: on('oversight'),
      verdict: 'wrong-queue',
    },
    {
      label: 'a genuine handoff for a target no route maps, on the unrouted queue',
      message: unmapped,
      options: on('unrouted'),
      verdict: 'ok',
      delivery: 'first',
    },
    {
      label: 'a genuine handoff for a target no route maps, copied onto the steward queue',
      message: unmapped,
      options: on('steward'),
      verdict: 'wrong-queue',
    },
    {
      label: 'the genuine Oversight handoff on its own queue, where --expect-target names only Review',
      message: oversight,
      options: { ...on('oversight'), expectedTargets: [REVIEW] },
      verdict: 'wrong-queue',
    },
  ];
  return {
    name: 'misrouted-handoff',
    description:
      'Genuine handoffs, unchanged, copied onto route queues their routes do not resolve to (refused as wrong-queue by the queue key alone), and repeated on their own queue (printed once per run).',
    policy: POLICY,
    cases,
  };
}

/** The committed files of the handoff corpus, by path under conformance/ledger/. */
export function generateHandoffCorpus(): Map<string, string> {
  const files = new Map<string, string>();
  for (const s of handoffScenarios()) {
    const dir = `handoffs/${s.name}`;
    files.set(`${dir}/policy.json`, s.policy);
    files.set(`${dir}/messages.jsonl`, s.cases.map((c) => `${c.message}\n`).join(''));
    const expected = {
      name: s.name,
      description: s.description,
      cases: s.cases.map((c, line) => ({
        line: line + 1,
        label: c.label,
        ...(c.options ? { options: c.options } : {}),
        verdict: c.verdict,
        ...(c.delivery ? { delivery: c.delivery } : {}),
      })),
    };
    files.set(`${dir}/expected.json`, `${JSON.stringify(expected, null, 2)}\n`);
  }
  return files;
}
