/**
 * A poison registry item never stalls its log (docs/adr/0485-a-poison-pack-is-a-recorded-refusal.md), over the wire
 * on a local stack, as a writer of the registry table with a plain PutItem would leave it: a published pack's item
 * re-put with bytes that do not hash to its digest, and a published alias's item re-put with no valid digest. Each
 * request naming one is recorded at once as one refusal entry (`pack-unreadable`, `alias-unreadable`), a request sent
 * behind it to the same log — the next ledger message of its FIFO group, sent once the poison's was handed to the
 * evaluate function — is recorded within one visibility timeout (the test prints the wait), `docket submit
 * --wait` hands the requester the verified refusal, `docket replay` reproduces each refusal, and `docket verify`
 * reports each as `registry-rewritten`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as replay } from '../../cli/commands/replay.js';
import { run as submit } from '../../cli/commands/submit.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { stackFlags, startE2e, type E2eWorld } from './harness.js';
import { sendToLog, watchLedgerQueue } from './ledger-queue.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const STAGE = 'poisonpack';
const file = (name: string) => join(process.cwd(), 'examples', name);
const aliasOf = (name: string) => {
  const p = JSON.parse(readFileSync(file(name), 'utf8')) as { id: string; version: string };
  return `${p.id}@${p.version}`;
};
const VENDOR = 'vendor-onboarding-target.json';
const LEAVE = 'routes-all-filtered.json';
const TRIAGE = 'data-request-intake-triage.json';
const VENDOR_DIGEST = createHash('sha256')
  .update(readFileSync(file(VENDOR)))
  .digest('hex');
let w: E2eWorld;
const watch = watchLedgerQueue();
const dir = mkdtempSync(join(tmpdir(), 'docket-poison-pack-'));

const request = (id: string, pack: string) =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${pack}","facts":{}}`;
/** PutItem with no condition: an overwrite, as a writer of the table can issue. */
const overwrite = (item: Record<string, AttributeValue>) =>
  w.dynamodb.send(new PutItemCommand({ TableName: w.env.PACKS_TABLE!, Item: item }));

async function entryOf(requestId: string): Promise<SignedEntry> {
  for (;;) {
    const at = await findPosition(w.store, requestId);
    if (at !== null)
      for await (const s of w.store.readEntries(at.logId, at.seq, at.seq)) {
        const p = parseStoredEntry(s.body);
        if (!p.ok) throw new Error(p.error.detail);
        return p.value.entry;
      }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sends the poison request in a ledger message under a log's group and, once the evaluate function has been handed
 * it, the next request in the next message of that group (a message FIFO holds back while the poison's is in
 * flight); both entries and how long the one behind waited.
 */
async function poisonThenNext(poisonId: string, poisonPack: string) {
  const log = (JSON.parse(w.env.LOG_IDS!) as string[])[0]!;
  const next = `${poisonId}-behind`;
  await sendToLog(w, log, [request(poisonId, poisonPack)]);
  while (watch.carriersOf(poisonId).length === 0) await new Promise((r) => setTimeout(r, 20));
  const sent = Date.now();
  await sendToLog(w, log, [request(next, aliasOf(TRIAGE))]);
  const [refused, after] = await Promise.all([entryOf(poisonId), entryOf(next)]);
  return { refused, after, next, waitedMs: Date.now() - sent };
}

async function visibilitySeconds(): Promise<number> {
  const a = await w.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: w.queueUrl('ledger.fifo'), AttributeNames: ['VisibilityTimeout'] }),
  );
  return Number(a.Attributes!.VisibilityTimeout);
}

beforeAll(async () => {
  w = await startE2e({ stage: STAGE, wrapHandler: watch.wrapHandler });
  for (const name of [VENDOR, LEAVE, TRIAGE])
    expect(await publish([file(name), ...stackFlags(w, STAGE)], memoryIo())).toBe(0);
}, 180_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a poison pack item on the registry table', () => {
  it('is recorded at once as pack-unreadable, and a request behind it in its log is recorded within one visibility timeout', async () => {
    await overwrite({
      pk: { S: `pack#${VENDOR_DIGEST}` },
      sk: { S: 'pack' },
      bytes: { B: new TextEncoder().encode('{"id":"not the published pack"}') },
    });
    await w.coldStart(); // no warm cache holds the pack as it was
    const { refused, after, next, waitedMs } = await poisonThenNext('poison-pack-1', `sha256:${VENDOR_DIGEST}`);
    expect(refused).toMatchObject({
      kind: 'admission-refusal',
      pack: { digest: VENDOR_DIGEST },
      refusal: { code: 'pack-unreadable', message: expect.stringContaining(`pack sha256:${VENDOR_DIGEST}`) },
    });
    expect([after.requestId, after.logId, after.kind === 'admission-refusal']).toEqual([next, refused.logId, false]);
    const visibility = await visibilitySeconds();
    process.stdout.write(
      `a request behind a poison pack was recorded ${waitedMs} ms after it was sent (visibility timeout ${visibility} s)\n`,
    );
    expect(waitedMs).toBeLessThan(visibility * 1000);
  }, 120_000);

  it('is recorded at once as alias-unreadable when the alias item holds no valid digest, and its log goes on', async () => {
    await overwrite({ pk: { S: `alias#${aliasOf(LEAVE)}` }, sk: { S: 'alias' }, digest: { S: 'sha256:nothing' } });
    const { refused, after, next, waitedMs } = await poisonThenNext('poison-alias-1', aliasOf(LEAVE));
    expect(refused).toMatchObject({
      kind: 'admission-refusal',
      pack: null,
      refusal: { code: 'alias-unreadable', message: expect.stringContaining(`pack alias ${aliasOf(LEAVE)}`) },
    });
    expect([after.requestId, after.logId]).toEqual([next, refused.logId]);
    expect(waitedMs).toBeLessThan((await visibilitySeconds()) * 1000);
  }, 120_000);

  it('docket submit --wait tells the requester what happened: the verified refusal pack-unreadable, from its notification', async () => {
    const facts = join(dir, 'facts.json');
    writeFileSync(facts, '{}');
    const io = memoryIo();
    const code = await submit(
      [
        '--pack',
        `sha256:${VENDOR_DIGEST}`,
        '--facts',
        facts,
        '--id',
        'poison-pack-2',
        '--wait',
        '--json',
        '--policy',
        w.policyPath,
        ...stackFlags(w, STAGE),
      ],
      io,
    );
    const line = JSON.parse(io.out()) as { entry: string };
    const e = JSON.parse(line.entry) as SignedEntry;
    expect(e.kind === 'admission-refusal' && [e.requestId, e.refusal.code]).toEqual([
      'poison-pack-2',
      'pack-unreadable',
    ]);
    expect(code, io.err()).toBe(0);
  }, 60_000);

  it('docket replay reproduces every such refusal from the registry as it still is', async () => {
    for (const id of ['poison-pack-1', 'poison-pack-2', 'poison-alias-1']) {
      const io = memoryIo();
      const code = await replay(['--request', id, '--policy', w.policyPath, ...stackFlags(w, STAGE)], io);
      const line = JSON.parse(io.out().trimEnd().split('\n')[0]!) as Record<string, unknown>;
      expect(line, io.err()).toMatchObject({ requestId: id, result: 'replay-match' });
      expect(code).toBe(0);
    }
  });

  it('docket verify reports each refusal as registry-rewritten', async () => {
    const v = await w.verify();
    const verdict = JSON.parse(v.stdout) as { findings: { code: string }[] };
    expect(verdict.findings.map((f) => f.code)).toEqual([
      'registry-rewritten',
      'registry-rewritten',
      'registry-rewritten',
    ]);
    expect(v.exitCode).toBe(1);
  });
});
