/**
 * The promises corpus (conformance/ledger/promises/): the attacks on what a requester holds, each a frozen scenario
 * whose expectation is written here by hand from docs/pipeline.md "Verifying a result" and docs/verify.md "Saved
 * results" / "Requests without an entry" (ADRs 0290–0292), never copied from a verifier's output.
 *
 * - results/<name>/: `policy.json`, `request.json` (the exact bytes the requester sent), `notification.json` (what
 *   arrived on its wait queue) and `expected.json` — `{"verdict":"ok"}` or the first reason it is refused.
 * - saved/<name>/: `policy.json`, `saved.json` (the requester's `submit --wait --json` line), `entries.jsonl` and
 *   `checkpoints.jsonl` (log-a as the stage holds it at audit time) and `expected.json` — the audit's verdict, or
 *   `{"notYet":"not-checkpointed"}`.
 * - archive/<name>/: `inputs.json` (archive, recorded entries, DLQ messages with their redrive source, path queues, now) and `expected.json` (findings and
 *   excused requests of the auditor's cross-check).
 *
 * Base: log-a signed by K1, checkpoints by KC under the prod authority; the requester's request is
 * `{"format":"docket.evaluation-request/1","requestId":"promise-1","pack":"sha256:<PACK_DIGEST>","facts":<FACTS>}`.
 */
import canonicalize from 'canonicalize';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildCheckpoint, CHECKPOINT_FORMAT } from '../../core/ledger/checkpoints/checkpoint.js';
import { entryHashOf, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { resultLine } from '../../core/pipeline/saved-result.js';
import { signerFromKeyPair, type Ed25519KeyPair } from '../../core/ledger/primitives/signature.js';
import {
  K1,
  KC,
  KF,
  PACK_DIGEST,
  policyText,
  PROD,
  recordOf,
  rootOf,
  signRaw,
  unsignedEntry,
  type Rec,
} from './fixtures.js';

const LOG = 'log-a';
const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const requestText = (id: string, facts = FACTS): string =>
  `{"format":"docket.evaluation-request/1","requestId":"${id}","pack":"sha256:${PACK_DIGEST}","facts":${facts}}`;
const from0 = [{ logId: LOG, fromSeq: 0, toSeq: null }];
const POLICY = policyText(
  [LOG],
  [
    { keys: K1, role: 'entries', validity: from0 },
    { keys: KC, role: 'checkpoints', validity: from0 },
  ],
);
const DISPOSITION = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };

/** The disposition entry of request `id` (as sent by requestText) at (log-a, seq), signed by `keys`. */
function resultEntry(
  id: string,
  seq: number,
  prevHash: string | null,
  keys: Ed25519KeyPair = K1,
  over: Record<string, unknown> = {},
): string {
  // The fixture's entry of seq 0 is a disposition: its common members, at this entry's place.
  const { seq: _s, prevHash: _p, ...base } = unsignedEntry(LOG, 0, null, keys) as unknown as Record<string, unknown>;
  return signRaw(
    {
      ...base,
      seq,
      prevHash,
      kind: 'disposition',
      requestId: id,
      requestDigest: sha256Hex(requestText(id)),
      factsDigest: sha256Hex(FACTS),
      evidenceDigest: null,
      specVersion: '0.3.0',
      workBudget: 100000,
      pack: { id: 'vendor', version: '2.1.0', digest: PACK_DIGEST },
      work: 12,
      disposition: DISPOSITION,
      dispositionDigest: sha256Hex(canonicalize(DISPOSITION) as string),
      ...over,
    },
    keys,
  );
}

/** A log whose entries are the results of requests `ids`, in order. */
function logOf(ids: readonly string[]): Rec[] {
  const out: Rec[] = [];
  let prev: string | null = null;
  ids.forEach((id, seq) => {
    const body = resultEntry(id, seq, prev);
    out.push(recordOf(body, LOG, seq));
    prev = entryHashOf(body);
  });
  return out;
}

function checkpointBody(recs: readonly Rec[], size: number, keys = KC): string {
  return buildCheckpoint(
    {
      format: CHECKPOINT_FORMAT,
      logId: LOG,
      treeSize: size,
      rootHash: rootOf(recs, size),
      chainHead: entryHashOf(recs[size - 1]!.body),
      keyId: keys.keyId,
      origin: PROD,
      time: '2026-12-04T06:00:00Z',
      entriesVerified: true,
    } as never,
    signerFromKeyPair(keys),
  ).body;
}

const notification = (entry: string): string =>
  canonicalize({ format: 'docket.result/2', notificationId: entryHashOf(entry), entry }) as string;

function lineOf(entry: string): string {
  const p = parseStoredEntry(entry);
  if (!p.ok) throw new Error(p.error.detail);
  return `${resultLine(p.value, entry)}\n`;
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

/** Every file of the corpus, by path under conformance/ledger/. */
export async function generatePromiseCorpus(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const put = (dir: string, name: string, text: string) => files.set(`promises/${dir}/${name}`, text);

  // results: what submit --wait accepts from its queue.
  const genuine = resultEntry('promise-1', 0, null);
  const reject = { kind: 'outcome', outcomeId: 'reject', reasons: [], handoff: { state: 'none' } };
  const edited = JSON.parse(genuine) as Record<string, unknown>;
  const forgedOutcome = canonicalize({
    ...edited,
    disposition: reject,
    dispositionDigest: sha256Hex(canonicalize(reject) as string),
  }) as string;
  const results: [string, string, string, string][] = [
    ['honest', requestText('promise-1'), notification(genuine), 'ok'],
    ['forged-outcome-signature-kept', requestText('promise-1'), notification(forgedOutcome), 'signature-mismatch'],
    [
      're-signed-by-a-foreign-key',
      requestText('promise-1'),
      notification(resultEntry('promise-1', 0, null, KF)),
      'unknown-key',
    ],
    [
      'genuine-result-of-another-request',
      requestText('promise-1'),
      notification(resultEntry('promise-2', 0, null)),
      'request-id-mismatch',
    ],
    [
      'same-id-other-bytes-sent',
      requestText('promise-1', '{"vendor":{"riskScore":"99"}}'),
      notification(genuine),
      'request-digest-mismatch',
    ],
    [
      'trusted-key-records-other-facts',
      requestText('promise-1'),
      notification(resultEntry('promise-1', 0, null, K1, { factsDigest: sha256Hex('{}') })),
      'facts-digest-mismatch',
    ],
    [
      'unsigned-v1-copy',
      requestText('promise-1'),
      canonicalize({
        format: 'docket.result/1',
        requestId: 'promise-1',
        kind: 'disposition',
        disposition: reject,
      }) as string,
      'unsupported-format',
    ],
    [
      'notification-id-not-the-entry-hash',
      requestText('promise-1'),
      canonicalize({ format: 'docket.result/2', notificationId: 'f'.repeat(64), entry: genuine }) as string,
      'notification-malformed',
    ],
  ];
  for (const [name, request, body, verdict] of results) {
    put(`results/${name}`, 'policy.json', POLICY);
    put(`results/${name}`, 'request.json', request);
    put(`results/${name}`, 'notification.json', body);
    put(`results/${name}`, 'expected.json', json({ verdict }));
  }

  // saved: the requester's line for promise-2 at seq 2, audited against log-a as the stage holds it.
  const original = logOf(['promise-0', 'promise-1', 'promise-2', 'promise-3']);
  const refilled = logOf(['promise-0', 'promise-1', 'promise-4', 'promise-5']);
  const saved = lineOf(original[2]!.body);
  const savedCases: [string, Rec[], string[], unknown][] = [
    ['honest-included', original, [checkpointBody(original, 4)], { ok: true, findings: [] }],
    [
      'deleted-and-refilled',
      refilled,
      [checkpointBody(refilled, 2), checkpointBody(refilled, 4)],
      {
        ok: false,
        findings: [
          { code: 'entry-omitted', logId: LOG, seq: 2, treeSize: 4, leafHash: entryHashOf(refilled[2]!.body) },
        ],
      },
    ],
    // The tail (promise-2 on) deleted: the log ends at the saved seq and the saved entry's chain fits its last entry,
    // so the signed entry proves the log reached seq 2, with or without a checkpoint covering it (ADR 0461).
    [
      'deleted-not-yet-covered',
      refilled.slice(0, 2),
      [checkpointBody(refilled, 2)],
      { ok: false, findings: [{ code: 'entry-omitted', logId: LOG, seq: 2, logEnd: 2 }] },
    ],
    [
      'tail-deleted-under-a-covering-checkpoint',
      original.slice(0, 2),
      [checkpointBody(original, 4)],
      { ok: false, findings: [{ code: 'entry-omitted', logId: LOG, seq: 2, logEnd: 2 }] },
    ],
    // Two entries short: the saved entry's predecessor is gone too, so nothing ties it to this log: not yet.
    ['tail-deleted-past-the-predecessor', original.slice(0, 1), [], { notYet: 'not-checkpointed' }],
    [
      'refilled-under-a-foreign-checkpoint',
      refilled,
      [checkpointBody(refilled, 4, KF)],
      { ok: false, findings: [{ code: 'checkpoint-unknown-key' }, { code: 'inclusion-proof-invalid' }] },
    ],
  ];
  for (const [name, recs, checkpoints, expected] of savedCases) {
    put(`saved/${name}`, 'policy.json', POLICY);
    put(`saved/${name}`, 'saved.json', saved);
    put(`saved/${name}`, 'entries.jsonl', recs.map((r) => `${r.body}\n`).join(''));
    put(`saved/${name}`, 'checkpoints.jsonl', checkpoints.map((c) => `${c}\n`).join(''));
    put(`saved/${name}`, 'expected.json', json(expected));
  }

  // archive: the auditor's rule (idle path, in flight, redriven by SQS, planted on a DLQ, reused id, future retention).
  const d = (id: string) => sha256Hex(requestText(id));
  const now = 1_796_364_000;
  const intake = (waiting: number, inFlight: number) => ({
    name: 'docket-prod-intake',
    waiting,
    inFlight,
    redeliveryWindowSeconds: 900,
  });
  const ledgerQueue = 'arn:aws:sqs:eu-west-1:111122223333:docket-prod-ledger.fifo';
  const redriveSources = [[ledgerQueue, 'ledger-queue-redriven']];
  const archived = [
    { requestId: 'promise-0', requestDigest: d('promise-0'), retainedAt: now - 3600 },
    { requestId: 'promise-2', requestDigest: d('promise-2'), retainedAt: now - 60 },
  ];
  const recorded = [`promise-0\n${d('promise-0')}`];
  const base = { archived, recorded, deadLettered: [], redriveSources, now };
  const omitted = {
    findings: [{ code: 'request-without-entry', requestId: 'promise-2', requestDigest: d('promise-2') }],
    excused: [],
  };
  const archiveCases: [string, unknown, unknown][] = [
    ['deleted-entry-idle-queue', { ...base, queues: [intake(0, 0)] }, omitted],
    [
      'young-request-busy-queue',
      { ...base, queues: [intake(0, 1)] },
      { findings: [], excused: [{ requestId: 'promise-2', requestDigest: d('promise-2'), excuse: 'in-flight' }] },
    ],
    ['old-request-busy-queue', { ...base, queues: [intake(4, 0)], now: now + 900 }, omitted],
    [
      'redriven-by-sqs',
      { ...base, deadLettered: [{ digest: d('promise-2'), sourceArn: ledgerQueue }], queues: [intake(0, 0)] },
      {
        findings: [],
        excused: [
          {
            requestId: 'promise-2',
            requestDigest: d('promise-2'),
            excuse: 'dead-lettered',
            reason: 'ledger-queue-redriven',
          },
        ],
      },
    ],
    [
      'planted-on-dlq',
      { ...base, deadLettered: [{ digest: d('promise-2'), sourceArn: null }], queues: [intake(0, 0)] },
      omitted,
    ],
    [
      'reused-id',
      {
        ...base,
        archived: [...archived, { requestId: 'promise-0', requestDigest: d('promise-2'), retainedAt: now - 60 }],
        queues: [intake(0, 0)],
      },
      {
        ...omitted,
        excused: [{ requestId: 'promise-0', requestDigest: d('promise-2'), excuse: 'request-id-reused' }],
      },
    ],
    [
      'retained-in-future',
      {
        ...base,
        archived: [archived[0], { requestId: 'promise-2', requestDigest: d('promise-2'), retainedAt: now + 86_400 }],
        queues: [intake(3, 1)],
      },
      {
        findings: [
          {
            code: 'request-retained-in-future',
            requestId: 'promise-2',
            requestDigest: d('promise-2'),
            retainedAt: now + 86_400,
          },
        ],
        excused: [],
      },
    ],
  ];
  for (const [name, inputs, expected] of archiveCases) {
    put(`archive/${name}`, 'inputs.json', json(inputs));
    put(`archive/${name}`, 'expected.json', json(expected));
  }
  return files;
}
