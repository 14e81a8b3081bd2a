/**
 * The ledger tamper corpus (docs/verify.md): each scenario is a ledger export + trust policy + checkpoints (+ position
 * markers when the scenario needs them) and the findings expected in both verification modes. The expected findings
 * are written here by hand from the rules in docs/verify.md — never copied from the verifier's output. Only their
 * presentation order is the verdict's documented order (compareFindings).
 *
 * Base ledger: logs log-a and log-b, six honest entries each (seq 0–5, kinds rotating), signed by K1, which the
 * policy pins for both logs from seq 0 on; checkpoints (prod authority) at log-a sizes 2 and 4 and log-b size 4, so
 * entries 4 and 5 of each log are an unanchored tail.
 */
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { CHECKPOINT_SIGNATURE_DOMAIN, ED25519_L } from '../../core/ledger/primitives/signature.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { sha256Hex, fromHex, toHex } from '../../core/ledger/primitives/bytes.js';
import type { Position, StoredCheckpoint } from '../../core/ledger/store/store.js';
import { compareFindings, type Finding } from '../../core/ledger/verify/findings.js';
import { MARKERS_FORMAT } from '../../core/ledger/verify/markers.js';
import {
  appendTo,
  bodyOf,
  buildLog,
  checkpointOf,
  checkpointsText,
  exportText,
  K1,
  K2,
  KF,
  KS,
  OTHER_BUILD,
  policyText,
  PROD,
  recordOf,
  signRaw,
  STAGING,
  unsignedEntry,
  withBody,
  type Rec,
} from './fixtures.js';
import type { Scenario } from './scenario.js';
import { trustScenarios } from './trust-scenarios.js';
import { draftFeatureScenarios } from './draft-scenarios.js';

export type { Scenario } from './scenario.js';

const BASE_POLICY = policyText(
  ['log-a', 'log-b'],
  [
    {
      keys: K1,
      validity: [
        { logId: 'log-a', fromSeq: 0, toSeq: null },
        { logId: 'log-b', fromSeq: 0, toSeq: null },
      ],
    },
  ],
);
/** K1 signs log-a up to seq 2 and then rotates out; K2 signs log-a from seq 3 on. */
const ROTATION_POLICY = policyText(
  ['log-a', 'log-b'],
  [
    {
      keys: K1,
      validity: [
        { logId: 'log-a', fromSeq: 0, toSeq: 2 },
        { logId: 'log-b', fromSeq: 0, toSeq: null },
      ],
    },
    { keys: K2, validity: [{ logId: 'log-a', fromSeq: 3, toSeq: null }] },
  ],
);

interface Base {
  a: Rec[];
  b: Rec[];
  cps: StoredCheckpoint[];
}
function base(): Base {
  const a = buildLog('log-a', 6);
  const b = buildLog('log-b', 6);
  return { a, b, cps: [checkpointOf(a, 'log-a', 2), checkpointOf(a, 'log-a', 4), checkpointOf(b, 'log-b', 4)] };
}
function rotationBase(): Base {
  const a = buildLog('log-a', 6, (s) => (s <= 2 ? K1 : K2));
  const b = buildLog('log-b', 6);
  return { a, b, cps: [checkpointOf(a, 'log-a', 2, K1), checkpointOf(a, 'log-a', 4, K2), checkpointOf(b, 'log-b', 4)] };
}

/** Replaces members of a record's signed body, keeping its (now stale) signature; the projection follows the body. */
const edit = (r: Rec, changes: Record<string, unknown>, fixProjection = true): Rec =>
  withBody(r, canonicalText({ ...bodyOf(r), ...changes }), fixProjection);
const setSignature = (r: Rec, hex: string): Rec => edit(r, { signature: hex });

function malleate(signatureHex: string): string {
  const sig = fromHex(signatureHex);
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i] as number);
  s += ED25519_L; // S + L: the same point equation, a non-canonical S (RFC 8032 §5.1.7 requires S < L)
  const out = Uint8Array.from(sig);
  for (let i = 32; i < 64; i++) {
    out[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return toHex(out);
}

/** Re-signs records from `from` on so the chain follows whatever record sits before them (same keys, K1 default). */
function rechain(log: Rec[], from: number): void {
  for (let i = from; i < log.length; i++) {
    const r = log[i] as Rec;
    const o = bodyOf(r);
    o.prevHash = entryHashOf((log[i - 1] as Rec).body);
    log[i] = recordOf(signRaw(o, K1), r.logId, r.seq);
  }
}

const positionsOf = (recs: readonly Rec[]): Position[] =>
  recs.map((r) => ({ requestId: r.projection.requestId, logId: r.logId, seq: r.seq }));

/** A custom entry for stored slot log-a 6 (after the honest 0–5), for the stacked-defect scenarios. */
function stackedAt6(
  a: Rec[],
  o: {
    bodyLog?: string;
    keys?: typeof K1;
    signer?: typeof K1;
    extra?: Record<string, unknown>;
    projectionRequestId?: string;
    mutateBody?: (b: string) => string;
  },
): Rec {
  const prev = entryHashOf((a[5] as Rec).body);
  const unsigned = unsignedEntry(o.bodyLog ?? 'log-a', 6, prev, o.keys ?? K1, o.extra ?? {}) as unknown as Record<
    string,
    unknown
  >;
  let body = signRaw(unsigned, o.signer ?? o.keys ?? K1);
  if (o.mutateBody) body = o.mutateBody(body);
  const r = recordOf(body, 'log-a', 6);
  return o.projectionRequestId === undefined
    ? r
    : { ...r, projection: { ...r.projection, requestId: o.projectionRequestId } };
}
const safeRecord = (body: string, logId: string, seq: number, requestId: string, kind: string): Rec => ({
  logId,
  seq,
  body,
  projection: { requestId, kind, entryHash: entryHashOf(body) },
});

const ent = (code: Finding['code'], logId: string, seq: number): Finding => ({ code, logId, seq }) as Finding;

export function scenarios(): Scenario[] {
  const out: Scenario[] = [];
  const add = (s: Scenario) => out.push(s);

  {
    const { a, b, cps } = base();
    add({
      name: 'baseline',
      description: 'Two honest logs, checkpoints at log-a 2 and 4 and log-b 4, unanchored tails of two entries.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [],
    });
  }

  {
    const { a, b, cps } = base();
    a[1] = edit(a[1] as Rec, { work: 8 });
    add({
      name: 'edited-signed-body-anchored',
      description:
        'Entry log-a 1 (covered by both log-a checkpoints) has a signed member edited; the projection was updated to hide it.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('signature-mismatch', 'log-a', 1),
        { code: 'chain-broken', logId: 'log-a', seq: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    a[5] = edit(a[5] as Rec, { time: '2026-12-01T10:59:59Z' });
    add({
      name: 'edited-signed-body-tail',
      description: 'The last, unanchored entry of log-a has its time edited.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = base();
    a[2] = edit(a[2] as Rec, { note: 'approved by phone' });
    add({
      name: 'appended-member',
      description:
        'A member no entry format has is appended to log-a 2 (canonical bytes, projection updated): the strict reader refuses it.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('malformed', 'log-a', 2),
        { code: 'chain-broken', logId: 'log-a', seq: 3 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    a[1] = { ...(a[1] as Rec), projection: { ...(a[1] as Rec).projection, requestId: 'someone-else' } };
    add({
      name: 'edited-projection-request-id',
      description: 'The unsigned projection of log-a 1 names another request id; the signed body is intact.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('projection-mismatch', 'log-a', 1)],
    });
  }

  {
    const { a, b, cps } = base();
    b[4] = { ...(b[4] as Rec), projection: { ...(b[4] as Rec).projection, entryHash: sha256Hex('not the entry') } };
    add({
      name: 'edited-projection-entry-hash',
      description: 'The unsigned projection of log-b 4 carries a wrong entry hash.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('projection-mismatch', 'log-b', 4)],
    });
  }

  {
    const { a, b, cps } = base();
    a[3] = withBody(a[3] as Rec, (a[3] as Rec).body.replace('"work":', '"work":99,"work":'), false);
    add({
      name: 'duplicate-member-names',
      description:
        'The stored bytes of log-a 3 carry "work" twice (a reader keeping the last would see 99 or the original).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('malformed', 'log-a', 3),
        { code: 'chain-broken', logId: 'log-a', seq: 4 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    b[4] = withBody(b[4] as Rec, (b[4] as Rec).body.replace('{', '{ '), false);
    add({
      name: 'non-canonical-bytes',
      description:
        'The stored bytes of log-b 4 parse to the signed value but are not its RFC 8785 form (a space); never repaired.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('malformed', 'log-b', 4), { code: 'chain-broken', logId: 'log-b', seq: 5 }],
    });
  }

  {
    const { a, b, cps } = base();
    a[5] = withBody(a[5] as Rec, (a[5] as Rec).body.replace('"tenant":"acme"', '"tenant":"ac\\ud800me"'), false);
    add({
      name: 'lone-surrogate',
      description: 'The stored bytes of log-a 5 escape a lone surrogate inside a string.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('malformed', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = base();
    a.splice(2, 1);
    add({
      name: 'deleted-interior-entry-anchored',
      description: 'Entry log-a 2 is deleted; later entries keep their seq.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        { code: 'sequence-broken', logId: 'log-a', seq: 3, expectedSeq: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    b.splice(4, 1);
    add({
      name: 'deleted-interior-entry-unanchored',
      description: 'Entry log-b 4 (after the last checkpoint, not the last entry) is deleted.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'sequence-broken', logId: 'log-b', seq: 5, expectedSeq: 4 }],
    });
  }

  {
    const { a, b, cps } = base();
    a.splice(3);
    add({
      name: 'deleted-tail-after-checkpoint',
      description: 'Entries log-a 3–5 are deleted although the checkpoint at 4 covers entry 3.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'tail-rollback', logId: 'log-a', treeSize: 4, entries: 3 }],
    });
  }

  {
    const { a, b, cps } = base();
    const markers = positionsOf([...a, ...b]);
    a.splice(5);
    add({
      name: 'deleted-unanchored-tail-markers-intact',
      description: 'The unanchored last entry log-a 5 is deleted; its request position marker still names it.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      markers,
      expected: [{ code: 'position-without-entry', logId: 'log-a', seq: 5, requestId: 'log-a-req-5' }],
    });
  }

  {
    const { a, b, cps } = base();
    a.splice(5);
    add({
      name: 'deleted-unanchored-tail-without-markers',
      description:
        'The same deletion with no markers and no later checkpoint: nothing proves the entry existed (the documented limit of offline verification; docs/verify.md).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [],
    });
  }

  {
    const { a, b, cps } = base();
    const [x, y] = [a[1] as Rec, a[2] as Rec];
    a[1] = { ...y, seq: 1 };
    a[2] = { ...x, seq: 2 };
    add({
      name: 'swapped-entries-anchored',
      description: 'The items of log-a 1 and 2 are swapped (each body filed in the other slot).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('misfiled', 'log-a', 1),
        ent('misfiled', 'log-a', 2),
        { code: 'chain-broken', logId: 'log-a', seq: 1 },
        { code: 'chain-broken', logId: 'log-a', seq: 2 },
        { code: 'chain-broken', logId: 'log-a', seq: 3 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    const [x, y] = [b[4] as Rec, b[5] as Rec];
    b[4] = { ...y, seq: 4 };
    b[5] = { ...x, seq: 5 };
    add({
      name: 'swapped-entries-tail',
      description: 'The unanchored entries log-b 4 and 5 are swapped.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('misfiled', 'log-b', 4),
        ent('misfiled', 'log-b', 5),
        { code: 'chain-broken', logId: 'log-b', seq: 4 },
        { code: 'chain-broken', logId: 'log-b', seq: 5 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    b.push({ ...(a[1] as Rec), logId: 'log-b', seq: 6 });
    add({
      name: 'copied-across-logs',
      description: 'Entry log-a 1 is copied verbatim into slot log-b 6.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('misfiled', 'log-b', 6),
        { code: 'chain-broken', logId: 'log-b', seq: 6 },
        {
          code: 'duplicate-request',
          logId: 'log-b',
          seq: 6,
          requestId: 'log-a-req-1',
          firstLogId: 'log-a',
          firstSeq: 1,
        },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    a.push({ ...(a[1] as Rec), seq: 6 });
    add({
      name: 'copied-within-log',
      description: 'Entry log-a 1 is copied verbatim into slot log-a 6.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('misfiled', 'log-a', 6),
        { code: 'chain-broken', logId: 'log-a', seq: 6 },
        {
          code: 'duplicate-request',
          logId: 'log-a',
          seq: 6,
          requestId: 'log-a-req-1',
          firstLogId: 'log-a',
          firstSeq: 1,
        },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    appendTo(b, K1, { requestId: 'log-a-req-3' });
    add({
      name: 'same-request-across-logs',
      description:
        'A second, honestly signed and chained entry for request log-a-req-3 lands at log-b 6 (a broken append protocol).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        {
          code: 'duplicate-request',
          logId: 'log-b',
          seq: 6,
          requestId: 'log-a-req-3',
          firstLogId: 'log-a',
          firstSeq: 3,
        },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    appendTo(a, K1, { requestId: 'log-a-req-2' });
    add({
      name: 'same-request-within-log',
      description: 'A second, honestly signed entry for request log-a-req-2 lands at log-a 6.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        {
          code: 'duplicate-request',
          logId: 'log-a',
          seq: 6,
          requestId: 'log-a-req-2',
          firstLogId: 'log-a',
          firstSeq: 2,
        },
      ],
    });
  }

  {
    const { a, cps } = base();
    const staging = buildLog(
      'log-b',
      6,
      () => K1,
      () => ({}),
      'staging',
    );
    add({
      name: 'log-replayed-from-staging-same-key',
      description:
        "log-b is replaced by staging's log-b (same key reused there) with staging's own checkpoint; only the prod anchor tells them apart.",
      ledger: [...a, ...staging],
      policy: BASE_POLICY,
      checkpoints: [...cps, checkpointOf(staging, 'log-b', 6, K1, STAGING)],
      expected: [
        { code: 'checkpoint-unauthorized-origin', logId: 'log-b', treeSize: 6 },
        { code: 'root-mismatch', logId: 'log-b', treeSize: 4 },
      ],
    });
  }

  {
    const { a, cps } = base();
    const staging = buildLog(
      'log-b',
      6,
      () => KS,
      () => ({}),
      'staging',
    );
    add({
      name: 'log-replayed-from-staging-own-key',
      description: "log-b is replaced by staging's log-b signed with staging's key, with staging's checkpoint.",
      ledger: [...a, ...staging],
      policy: BASE_POLICY,
      checkpoints: [...cps, checkpointOf(staging, 'log-b', 6, KS, STAGING)],
      expected: [
        { code: 'checkpoint-unknown-key', logId: 'log-b', treeSize: 6 },
        ...[0, 1, 2, 3, 4, 5].map((s) => ent('unknown-key', 'log-b', s)),
        { code: 'root-mismatch', logId: 'log-b', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    add({
      name: 'older-prefix-with-older-checkpoint',
      description:
        'log-a is rolled back to its first 2 entries and only the checkpoint at 2 is presented: consistent, so ok — the verdict is only as fresh as its anchors (summary.anchors says which).',
      ledger: [...a.slice(0, 2), ...b],
      policy: BASE_POLICY,
      checkpoints: [cps[0] as StoredCheckpoint, cps[2] as StoredCheckpoint],
      expected: [],
    });
  }

  {
    const { a, b, cps } = base();
    add({
      name: 'older-prefix-with-newer-checkpoint',
      description: 'The same rollback with the checkpoint at 4 presented too.',
      ledger: [...a.slice(0, 2), ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'tail-rollback', logId: 'log-a', treeSize: 4, entries: 2 }],
    });
  }

  {
    const { a, b, cps } = base();
    const forged = JSON.parse((cps[1] as StoredCheckpoint).body) as Record<string, unknown>;
    forged.rootHash = sha256Hex('a root nobody signed');
    cps[1] = { logId: 'log-a', treeSize: 4, body: canonicalText(forged) };
    add({
      name: 'forged-checkpoint',
      description: 'The log-a checkpoint at 4 has its root replaced; the signature no longer verifies.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'checkpoint-signature-mismatch', logId: 'log-a', treeSize: 4 }],
    });
  }

  {
    const { a, b, cps } = base();
    add({
      name: 'foreign-key-checkpoint',
      description: 'A checkpoint of log-a at 6 signed by a key the policy does not pin.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: [...cps, checkpointOf(a, 'log-a', 6, KF)],
      expected: [{ code: 'checkpoint-unknown-key', logId: 'log-a', treeSize: 6 }],
    });
  }

  {
    const { a, b, cps } = base();
    const policy = policyText(
      ['log-a', 'log-b'],
      [
        {
          keys: K1,
          validity: [
            { logId: 'log-a', fromSeq: 0, toSeq: null },
            { logId: 'log-b', fromSeq: 0, toSeq: null },
          ],
        },
        { keys: K2, validity: [{ logId: 'log-b', fromSeq: 0, toSeq: null }] },
      ],
    );
    add({
      name: 'checkpoint-key-of-another-log',
      description: 'A checkpoint of log-a at 6 signed by K2, which the policy pins for log-b only.',
      ledger: [...a, ...b],
      policy,
      checkpoints: [...cps, checkpointOf(a, 'log-a', 6, K2)],
      expected: [{ code: 'checkpoint-key-not-valid-at-seq', logId: 'log-a', treeSize: 6 }],
    });
  }

  {
    const { a, b, cps } = base();
    const other = checkpointOf(a, 'log-a', 4, K1, PROD, {
      rootHash: sha256Hex('another history'),
      chainHead: sha256Hex('another head'),
    });
    add({
      name: 'equivocating-checkpoints',
      description: 'Two validly signed checkpoints of log-a at size 4 with different roots.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: [...cps, other],
      expected: [
        { code: 'checkpoint-equivocation', logId: 'log-a', treeSize: 4 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    const fork = buildLog(
      'log-a',
      2,
      () => K1,
      (s) => (s === 1 ? { requestId: 'log-a-req-1-fork' } : {}),
    );
    cps[0] = checkpointOf(fork, 'log-a', 2);
    add({
      name: 'inconsistent-checkpoints',
      description:
        'The log-a checkpoint at 2 (validly signed) is over a forked history that the checkpoint at 4 does not extend.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        { code: 'root-mismatch', logId: 'log-a', treeSize: 2 },
        { code: 'checkpoint-inconsistent', logId: 'log-a', treeSize: 2, laterTreeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    a[1] = setSignature(a[1] as Rec, malleate(bodyOf(a[1] as Rec).signature as string));
    add({
      name: 'malleated-signature-anchored',
      description: 'The signature of log-a 1 is replaced by its S+L twin (valid under a lax verifier).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        ent('signature-mismatch', 'log-a', 1),
        { code: 'chain-broken', logId: 'log-a', seq: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 2 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 4 },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    a[5] = setSignature(a[5] as Rec, malleate(bodyOf(a[5] as Rec).signature as string));
    add({
      name: 'malleated-signature-tail',
      description: 'The signature of the unanchored entry log-a 5 is replaced by its S+L twin.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = base();
    const o = bodyOf(a[5] as Rec);
    a[5] = withBody(a[5] as Rec, signRaw(o, K1, CHECKPOINT_SIGNATURE_DOMAIN));
    add({
      name: 'checkpoint-domain-signature-on-entry',
      description: "log-a 5 carries K1's signature over its own bytes under the checkpoint domain prefix.",
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = base();
    a[5] = setSignature(
      a[5] as Rec,
      (JSON.parse((cps[1] as StoredCheckpoint).body) as { signature: string }).signature,
    );
    add({
      name: 'checkpoint-signature-pasted-on-entry',
      description: 'log-a 5 carries the signature of the log-a checkpoint at 4.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = rotationBase();
    add({
      name: 'key-rotation-happy-path',
      description:
        'K1 signs log-a 0–2 and the checkpoint at 2; K2 signs log-a 3–5 and the checkpoint at 4, as the policy pins.',
      ledger: [...a, ...b],
      policy: ROTATION_POLICY,
      checkpoints: cps,
      expected: [],
    });
  }

  {
    const { a, b, cps } = rotationBase();
    a.splice(5);
    appendTo(a, K1);
    add({
      name: 'key-rotation-hijack-entry',
      description: 'After the rotation, the retired K1 signs a new log-a 5 (honestly chained).',
      ledger: [...a, ...b],
      policy: ROTATION_POLICY,
      checkpoints: cps,
      expected: [ent('key-not-valid-at-seq', 'log-a', 5)],
    });
  }

  {
    const { a, b, cps } = rotationBase();
    add({
      name: 'key-rotation-hijack-checkpoint',
      description: 'The retired K1 signs a checkpoint of log-a at 6.',
      ledger: [...a, ...b],
      policy: ROTATION_POLICY,
      checkpoints: [...cps, checkpointOf(a, 'log-a', 6, K1)],
      expected: [{ code: 'checkpoint-key-not-valid-at-seq', logId: 'log-a', treeSize: 6 }],
    });
  }

  // Stacked defects at slot log-a 6: each scenario removes the first defect of the previous one, pinning the order.
  const WRONG_DIGEST = { dispositionDigest: sha256Hex('not the disposition') };
  const WRONG_BUILD = { evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: OTHER_BUILD } };
  {
    const { a, b, cps } = base();
    a.push(
      stackedAt6(a, {
        bodyLog: 'log-b',
        keys: KF,
        extra: { ...WRONG_DIGEST, ...WRONG_BUILD },
        projectionRequestId: 'x',
        mutateBody: (s) => s.replace('{', '{ '),
      }),
    );
    add({
      name: 'stacked-malformed-first',
      description:
        'log-a 6: non-canonical bytes, unknown key, filed in the wrong log, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('malformed', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    const o = bodyOf(stackedAt6(a, { bodyLog: 'log-b', keys: KF, extra: WRONG_BUILD }));
    o.format = 'docket.ledger-entry/2';
    a.push(safeRecord(signRaw(o, KF), 'log-a', 6, 'x', 'disposition'));
    add({
      name: 'stacked-unsupported-version-first',
      description:
        'log-a 6: format docket.ledger-entry/2 without draftFeatures, unknown key, wrong log, wrong projection, unlisted build. ' +
        'Was unsupported-version while /2 did not exist; since format /2 (ADR 0220) such a body breaks its rules: malformed.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('malformed', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    const o = bodyOf(stackedAt6(a, { bodyLog: 'log-b', keys: KF, extra: WRONG_BUILD }));
    o.format = 'docket.ledger-entry/3';
    a.push(safeRecord(signRaw(o, KF), 'log-a', 6, 'x', 'disposition'));
    add({
      name: 'stacked-unsupported-version-first-v3',
      description:
        'log-a 6: format docket.ledger-entry/3 holding a disposition, unknown key, wrong log, wrong projection, unlisted build. ' +
        'Was unsupported-version while /3 did not exist; since format /3 holds graph runs only (ADR 0360) such a body breaks its rules: malformed.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('malformed', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    const o = bodyOf(stackedAt6(a, { bodyLog: 'log-b', keys: KF, extra: WRONG_BUILD }));
    o.format = 'docket.ledger-entry/4';
    a.push(safeRecord(signRaw(o, KF), 'log-a', 6, 'x', 'disposition'));
    add({
      name: 'stacked-unsupported-version-first-v4',
      description:
        'log-a 6: format docket.ledger-entry/4 (unknown to this reader), unknown key, wrong log, wrong projection, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('unsupported-version', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(
      stackedAt6(a, {
        bodyLog: 'log-b',
        keys: KF,
        extra: { ...WRONG_DIGEST, ...WRONG_BUILD },
        projectionRequestId: 'x',
      }),
    );
    add({
      name: 'stacked-unknown-key-first',
      description:
        'log-a 6: signed by an unpinned key, filed in the wrong log, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('unknown-key', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = rotationBase();
    a.push(stackedAt6(a, { keys: K1, extra: { ...WRONG_DIGEST, ...WRONG_BUILD }, projectionRequestId: 'x' }));
    add({
      name: 'stacked-key-not-valid-first',
      description:
        'log-a 6 under the rotation policy: signed by the retired K1, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: ROTATION_POLICY,
      checkpoints: cps,
      expected: [ent('key-not-valid-at-seq', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(
      stackedAt6(a, {
        bodyLog: 'log-b',
        keys: K1,
        signer: KF,
        extra: { ...WRONG_DIGEST, ...WRONG_BUILD },
        projectionRequestId: 'x',
      }),
    );
    add({
      name: 'stacked-signature-first',
      description:
        'log-a 6: names K1 but is signed by another key, filed in the wrong log, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(stackedAt6(a, { bodyLog: 'log-b', extra: { ...WRONG_DIGEST, ...WRONG_BUILD }, projectionRequestId: 'x' }));
    add({
      name: 'stacked-misfiled-first',
      description: 'log-a 6: validly signed but says log-b, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('misfiled', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(stackedAt6(a, { extra: { ...WRONG_DIGEST, ...WRONG_BUILD }, projectionRequestId: 'x' }));
    add({
      name: 'stacked-projection-first',
      description: 'log-a 6: validly signed and filed, wrong projection, wrong digest, unlisted build.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('projection-mismatch', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(stackedAt6(a, { extra: { ...WRONG_DIGEST, ...WRONG_BUILD } }));
    add({
      name: 'stacked-digest-first',
      description:
        'log-a 6: validly signed, filed and projected; its dispositionDigest is not the SHA-256 of its disposition, and its build is unlisted.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('disposition-digest-mismatch', 'log-a', 6)],
    });
  }

  {
    const { a, b, cps } = base();
    a.push(stackedAt6(a, { extra: WRONG_BUILD }));
    add({
      name: 'evaluator-build-not-allowed',
      description: 'log-a 6 is sound but records an evaluator build the policy does not accept.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('evaluator-build-not-allowed', 'log-a', 6)],
    });
  }

  const ONE_LOG_POLICY = policyText(['log-a'], [{ keys: K1, validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }] }]);
  add({
    name: 'empty-ledger-with-anchor',
    description: 'No entries; a signed checkpoint of log-a at size 0 anchors the empty log.',
    ledger: [],
    policy: ONE_LOG_POLICY,
    checkpoints: [checkpointOf([], 'log-a', 0)],
    expected: [],
  });
  add({
    name: 'empty-ledger-without-anchor',
    description: 'No entries and no checkpoint: the absent anchor fails closed.',
    ledger: [],
    policy: ONE_LOG_POLICY,
    checkpoints: [],
    expected: [{ code: 'unregistered-log', logId: 'log-a', missing: 'checkpoint' }],
  });

  {
    const { a, cps } = base();
    add({
      name: 'anchored-log-missing',
      description: 'All of log-b is gone, but its checkpoint at 4 is presented.',
      ledger: [...a],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'anchored-log-missing', logId: 'log-b', treeSize: 4 }],
    });
  }

  {
    const { a, b, cps } = base();
    const c = buildLog('log-c', 3);
    add({
      name: 'unregistered-log',
      description: 'The ledger holds a log-c the policy does not list (K1 is not pinned for it either).',
      ledger: [...a, ...b, ...c],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [0, 1, 2]
        .map((s) => ent('key-not-valid-at-seq', 'log-c', s))
        .concat([{ code: 'unregistered-log', logId: 'log-c', missing: 'policy' }]),
    });
  }

  {
    const { a, b, cps } = base();
    add({
      name: 'unanchored-log',
      description: 'log-b is listed and honest but no checkpoint of it is presented.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps.filter((c) => c.logId === 'log-a'),
      expected: [{ code: 'unregistered-log', logId: 'log-b', missing: 'checkpoint' }],
    });
  }

  {
    const { a, b, cps } = base();
    cps[1] = checkpointOf(a, 'log-a', 4, K1, PROD, { chainHead: entryHashOf((a[2] as Rec).body) });
    add({
      name: 'head-mismatch',
      description: 'The log-a checkpoint at 4 (validly signed) states the right root but the chain head of entry 2.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [{ code: 'head-mismatch', logId: 'log-a', treeSize: 4 }],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    a[1] = recordOf(signRaw({ ...bodyOf(a[1] as Rec) }, KF), 'log-a', 1);
    a[1] = edit(a[1] as Rec, { keyId: K1.keyId });
    rechain(a, 2);
    const cps = [checkpointOf(a, 'log-a', 2), checkpointOf(a, 'log-a', 4), checkpointOf(b, 'log-b', 4)];
    add({
      name: 'checkpointed-bad-signature',
      description:
        'log-a 1 names K1 but carries a signature by another key, and K1 later checkpointed the log over it in format /1: a /1 checkpoint (and a key in its own name) vouches for no signature, so both modes find it (ADR 0121; before it, the checkpoint path trusted the checkpoint).',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [ent('signature-mismatch', 'log-a', 1)],
    });
  }

  {
    const { a, b, cps } = base();
    a.splice(4, 0, a[3] as Rec);
    add({
      name: 'repeated-export-line',
      description: 'The export repeats the record of log-a 3.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: [
        { code: 'sequence-broken', logId: 'log-a', seq: 3, expectedSeq: 4 },
        {
          code: 'duplicate-request',
          logId: 'log-a',
          seq: 3,
          requestId: 'log-a-req-3',
          firstLogId: 'log-a',
          firstSeq: 3,
        },
      ],
    });
  }

  {
    const { a, b, cps } = base();
    const markers = positionsOf([...a, ...b]).map((p) => (p.requestId === 'log-a-req-2' ? { ...p, seq: 3 } : p));
    add({
      name: 'position-names-other-entry',
      description: 'The position marker of log-a-req-2 names slot log-a 3, which records another request.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      markers,
      expected: [{ code: 'position-mismatch', logId: 'log-a', seq: 3, requestId: 'log-a-req-2' }],
    });
  }

  {
    const { a, b, cps } = base();
    const text = exportText([...a, ...b]);
    add({
      name: 'truncated-export',
      description: 'The export file is cut in the middle of its last line: no verdict, never a shorter ok.',
      ledger: [...a, ...b],
      ledgerText: text.slice(0, text.length - 40),
      policy: BASE_POLICY,
      checkpoints: cps,
      expected: { noVerdict: 'export-unreadable' },
    });
  }

  {
    const { a, b, cps } = base();
    const text = checkpointsText(cps);
    add({
      name: 'truncated-checkpoint-file',
      description: 'The checkpoint export is cut short: no verdict.',
      ledger: [...a, ...b],
      policy: BASE_POLICY,
      checkpoints: cps,
      checkpointsTextOverride: text.slice(0, text.length - 30),
      expected: { noVerdict: 'checkpoints-unreadable' },
    });
  }

  out.push(...trustScenarios());
  out.push(...draftFeatureScenarios());
  return out;
}

const sorted = (f: readonly Finding[]): Finding[] => [...f].sort(compareFindings);

/** The corpus files, relative to conformance/ledger/: scenarios/<name>/{ledger.jsonl, policy.json, checkpoints.json, markers.json?, expected.json}. */
export function generateLedgerCorpus(): Map<string, string> {
  const files = new Map<string, string>();
  const index: { name: string; description: string }[] = [];
  for (const s of scenarios()) {
    const dir = `scenarios/${s.name}`;
    files.set(`${dir}/ledger.jsonl`, s.ledgerText ?? exportText(s.ledger));
    files.set(`${dir}/policy.json`, s.policy);
    files.set(`${dir}/checkpoints.json`, s.checkpointsTextOverride ?? checkpointsText(s.checkpoints));
    if (s.markers !== undefined)
      files.set(
        `${dir}/markers.json`,
        `${canonicalText({ format: MARKERS_FORMAT, positions: s.markers.map((p) => ({ logId: p.logId, requestId: p.requestId, seq: p.seq })) })}\n`,
      );
    const expected = Array.isArray(s.expected)
      ? {
          checkpoint: { ok: s.expected.length === 0, findings: sorted(s.expected as Finding[]) },
          allSignatures: {
            ok: (s.expectedAllSignatures ?? s.expected).length === 0,
            findings: sorted(s.expectedAllSignatures ?? (s.expected as Finding[])),
          },
        }
      : { noVerdict: (s.expected as { noVerdict: string }).noVerdict };
    files.set(
      `${dir}/expected.json`,
      `${JSON.stringify({ name: s.name, description: s.description, ...expected }, null, 2)}\n`,
    );
    index.push({ name: s.name, description: s.description });
  }
  files.set('scenarios/index.json', `${JSON.stringify(index, null, 2)}\n`);
  return files;
}
