/**
 * Forged handoffs over the wire (docs/pipeline.md "Verifying a handoff"): an outside AWS SDK client that may send to
 * the oversight route queue writes messages the evaluator never sent. `docket handoffs --route oversight --verify`
 * prints only the genuine handoff and moves every forgery to the route's DLQ with its DocketReason.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getQueueAttributes } from '../../adapters/sqs.js';
import { memoryIo } from '../../cli/io.js';
import { run as handoffs } from '../../cli/commands/handoffs.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildEntry, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry, UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { handoffId } from '../../core/pipeline/handoff-message.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ex, sleep, worldIo, type WorldIo } from './world-io.js';

/** Where `docket handoffs` remembers what it printed: a file of this test's own, never the working directory's. */
const SEEN = ['--seen', join(mkdtempSync(join(tmpdir(), 'docket-seen-')), 'handoffs-seen.json')];

let w: E2eWorld;
let io: WorldIo;
let outsider: SQSClient;

beforeAll(async () => {
  w = await startE2e({ stage: 'forge' });
  io = await worldIo(w);
  // Not the stack's client: its own connection and credentials, as any principal allowed to send would have.
  outsider = new SQSClient({
    endpoint: w.stack.endpoint,
    region: w.stack.region,
    credentials: { accessKeyId: 'outsider', secretAccessKey: 'outsider-secret' },
    useQueueUrlAsEndpoint: false,
  });
}, 120_000);
afterAll(async () => {
  outsider?.destroy();
  await w?.stop();
});

const leafHash = (text: string): string => sha256Hex(Buffer.concat([Buffer.of(0), Buffer.from(text, 'utf8')]));

/** The genuine message's bytes, read without consuming it (visibility 0 leaves it on the queue). */
async function peekOne(url: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const r = await w.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, VisibilityTimeout: 0 }),
    );
    const body = r.Messages?.[0]?.Body;
    if (body !== undefined) return body;
    await sleep(100);
  }
  throw new Error('no genuine handoff arrived');
}

function edited(body: string, change: (m: Record<string, unknown>) => void): string {
  const m = JSON.parse(body) as Record<string, unknown>;
  change(m);
  return canonicalize(m) as string;
}

describe('a forged handoff on a route queue', () => {
  it('is not printed by docket handoffs --verify and lands on the route DLQ with its reason; the genuine one prints', async () => {
    await io.submit(
      io.request(
        'genuine-1',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        ex('requests/triage-instance-7b.evidence.json'),
      ),
    );
    const recorded = await io.entryOf('genuine-1');
    const url = w.queueUrl('route-oversight');
    const genuine = await peekOne(url);
    const genuineEntry = JSON.parse(genuine).entry as string;
    expect(JSON.parse(genuine)).toMatchObject({ routeIndex: 1, target: { kind: 'human-role', name: 'Oversight' } });

    // 1. An entry that was never recorded, naming the stack's key id but signed by the forger's key.
    const forgerKeys = keyPairFromSeed(new Uint8Array(randomBytes(32)));
    const forger = signerFromKeyPair(forgerKeys);
    const { signature: _s, ...unsigned } = JSON.parse(genuineEntry) as SignedEntry;
    const ghost = buildEntry(
      { ...unsigned, requestId: 'ghost-1', seq: 999_999, prevHash: 'a'.repeat(64) } as UnsignedEntry,
      {
        keyId: w.keys.keyId,
        sign: (m) => forger.sign(m),
      },
    ).body;
    const nonexistent = edited(genuine, (m) => {
      m.entry = ghost;
      m.handoffId = handoffId(leafHash(ghost), 1);
    });
    // 2. The old coordinates-only format pointing at an entry that does not exist.
    const coordinatesOnly = canonicalize({
      format: 'docket.handoff/1',
      handoffId: handoffId('b'.repeat(64), 1),
      ledger: { logId: recorded.logId, seq: 999_999, entryHash: 'b'.repeat(64) },
      requestId: 'ghost-2',
    }) as string;
    // 3. A genuine copy with the route changed (the index no longer selects the target).
    const rerouted = edited(genuine, (m) => {
      m.routeIndex = 0;
      m.handoffId = handoffId(recorded.entryHash, 0);
    });
    // 4. A genuine copy moved, consistently, to another selected route: refused as wrong-queue on this queue.
    const moved = edited(genuine, (m) => {
      m.routeIndex = 0;
      m.target = { kind: 'human-role', name: 'Data Steward' };
      m.handoffId = handoffId(recorded.entryHash, 0);
    });
    // 5. A genuine copy with the result changed, digest and id recomputed: only the signature tells.
    const disposition = (JSON.parse(genuineEntry) as { disposition: Record<string, unknown> }).disposition;
    // (An outcome disposition carries no reasons, so it can request no handoff: the forger changes the result's reasons.)
    const handoff = disposition.handoff as Record<string, unknown>;
    const changed = { ...disposition, reasons: ['conflict'], handoff: { ...handoff, triggeredBy: ['conflict'] } };
    const outcomeText = genuineEntry
      .replace(canonicalize(disposition) as string, canonicalize(changed) as string)
      .replace(sha256Hex(canonicalize(disposition) as string), sha256Hex(canonicalize(changed) as string));
    expect(parseStoredEntry(outcomeText).ok).toBe(true);
    const newOutcome = edited(genuine, (m) => {
      m.entry = outcomeText;
      m.handoffId = handoffId(leafHash(outcomeText), 1);
    });
    // 6. A genuine copy with one byte of the entry changed.
    const entryBytes = edited(genuine, (m) => {
      m.entry = (m.entry as string).replace('"requestId":"genuine-1"', '"requestId":"genuine-2"');
    });
    const forged: Record<string, string> = {
      [nonexistent]: 'signature-mismatch',
      [coordinatesOnly]: 'unsupported-format',
      [rerouted]: 'route-mismatch',
      [moved]: 'wrong-queue',
      [newOutcome]: 'signature-mismatch',
      [entryBytes]: 'handoff-id-mismatch',
    };
    for (const body of Object.keys(forged))
      await outsider.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));

    const flags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'forge'];
    let out = '';
    let err = '';
    const codes: number[] = [];
    for (let i = 0; i < 10 && (err.match(/refused message/g) ?? []).length < 6; i++) {
      const cli = memoryIo();
      codes.push(
        await handoffs(
          [
            '--route',
            'oversight',
            '--verify',
            '--policy',
            w.policyPath,
            '--expect-target',
            'human-role:Oversight',
            '--json',
            ...SEEN,
            ...flags,
          ],
          cli,
        ),
      );
      out += cli.out();
      err += cli.err();
    }
    const printed = out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(printed.map((p) => [p.verified, p.requestId, p.routeIndex, p.message === genuine])).toEqual([
      [true, 'genuine-1', 1, true],
    ]);
    expect(codes).toContain(1);
    for (const reason of new Set(Object.values(forged))) expect(err).toContain(`: ${reason}: `);

    const dead = await io.drain(w.queueUrl('route-oversight-dlq'), 6);
    expect(dead.map((d) => [forged[d.body], d.attributes.DocketReason]).sort()).toEqual(
      Object.values(forged)
        .map((r) => [r, r])
        .sort(),
    );
    expect(await io.drain(url, 0, 0)).toEqual([]);
  }, 90_000);

  it('copied onto another route queue is refused there as wrong-queue and moved to that DLQ; repeats print once', async () => {
    await io.submit(
      io.request(
        'genuine-2',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        ex('requests/triage-instance-7b.evidence.json'),
      ),
    );
    await io.entryOf('genuine-2');
    const oversightUrl = w.queueUrl('route-oversight');
    const genuine = await peekOne(oversightUrl);
    expect(JSON.parse(genuine)).toMatchObject({ target: { kind: 'human-role', name: 'Oversight' } });
    const id = (JSON.parse(genuine) as { handoffId: string }).handoffId;
    // The attacker copies the genuine bytes, unchanged, onto the data-steward route queue, and repeats them on the
    // oversight queue.
    for (const url of [w.queueUrl('route-data-steward'), w.queueUrl('route-data-steward'), oversightUrl, oversightUrl])
      await outsider.send(new SendMessageCommand({ QueueUrl: url, MessageBody: genuine }));
    // The deployment's routes (the harness deploys the local preset's), as an operator passes them.
    const flags = [
      '--policy',
      w.policyPath,
      '--routes',
      w.routesPath,
      '--json',
      ...SEEN,
      '--endpoint',
      w.stack.endpoint,
    ];
    const stack = ['--region', w.stack.region, '--stage', 'forge'];

    const steward = memoryIo();
    const stewardCode = await handoffs(['--route', 'data-steward', ...flags, ...stack], steward);
    // Only the data-steward handoffs the pipeline itself sent there print (triage routes to Data Steward too).
    const stewardPrinted = steward
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { handoffId: string; target: unknown });
    expect(stewardPrinted.map((p) => p.handoffId)).not.toContain(id);
    expect(stewardPrinted.map((p) => p.target)).toEqual(
      stewardPrinted.map(() => ({ kind: 'human-role', name: 'Data Steward' })),
    );
    expect(stewardCode).toBe(1);
    expect(steward.err().match(/: wrong-queue: /g)).toHaveLength(2);
    const dead = await io.drain(w.queueUrl('route-data-steward-dlq'), 2);
    expect(dead.map((d) => [d.body === genuine, d.attributes.DocketReason])).toEqual([
      [true, 'wrong-queue'],
      [true, 'wrong-queue'],
    ]);
    expect(await io.drain(w.queueUrl('route-data-steward'), 0, 0)).toEqual([]);

    const cli = memoryIo();
    expect(await handoffs(['--route', 'oversight', '--wait', '2', ...flags, ...stack], cli)).toBe(0);
    const printed = cli
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { handoffId: string });
    expect(printed.map((p) => p.handoffId)).toEqual([id]);
    expect(cli.err()).toBe('');
    expect(await io.drain(oversightUrl, 0, 0)).toEqual([]);
  }, 90_000);

  it('is provisioned from the template with room for the largest handoff, on the route queue and its DLQ', async () => {
    for (const q of ['route-oversight', 'route-oversight-dlq']) {
      const a = await getQueueAttributes(w.sqs, w.queueUrl(q));
      expect(a.MaximumMessageSize, q).toBe('1048576');
    }
  });
});
