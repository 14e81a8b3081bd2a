/**
 * An accepted request made to disappear, tried as an attacker would over the wire on the local stack with only the
 * DynamoDB API (docs/verify.md "Requests without an entry", "Saved results"; ADRs 0291, 0292): the newest entry of a
 * log and its two markers (claim, position) are deleted before any checkpoint covers them, and `docket checkpoint`
 * is asked to sign the shorter log. `docket verify` must name the request (`request-without-entry`, ok:false) from the request
 * archive. Then the archived request is deleted too and the slot refilled with new requests and checkpointed: the
 * requester's saved `submit --wait --json` line given to `docket verify-receipt` must exit 1 with `entry-omitted`.
 * `docket checkpoint` refuses to sign while the omission is open (ADR 0457); a DLQ excuse is tested, with the forged
 * one, in dead-letter-excuses.e2e.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { deleteEntryItemAt } from '../adapters/entry-item-at.js';
import { unmarkFrom } from '../adapters/marker-item-at.js';
import { memoryIo } from '../../cli/io.js';
import { run as checkpoint } from '../../cli/commands/checkpoint.js';
import { run as submit } from '../../cli/commands/submit.js';
import { run as verify } from '../../cli/commands/verify.js';
import { run as verifyReceipt } from '../../cli/commands/verify-receipt.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { startE2e, type E2eWorld } from './harness.js';
import { sendToLog } from './ledger-queue.js';
import { worldIo, type WorldIo } from './world-io.js';

let w: E2eWorld;
let io: WorldIo;
const dir = mkdtempSync(join(tmpdir(), 'docket-omitted-'));
const LOW_RISK = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';

beforeAll(async () => {
  w = await startE2e({ stage: 'omit' });
  io = await worldIo(w);
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const flags = () => ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'omit'];

async function cli(cmd: (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>, argv: string[]) {
  const m = memoryIo();
  const code = await cmd(argv, m);
  return { code, out: m.out(), err: m.err() };
}

it('verify names a deleted request from the archive, and the requester’s saved result proves the omission once the slot is refilled', async () => {
  const key = join(dir, 'checkpoint-key.json');
  const policy = join(dir, 'trust-policy.json');
  const checkpoints = join(dir, 'checkpoints.json');
  writeFileSync(key, signingKeyDocument(w.checkpointKeys));
  writeFileSync(policy, w.policyText);
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];

  // Genuine traffic, then the victim's request, waited for and saved as its requester keeps it.
  // One earlier entry on every log, so the victim's log is not emptied by the deletion below. The sequence function
  // picks a log per ledger message, by its digest (ADR 0497): each log gets a ledger message of its own here.
  const before = logIds.map((_, i) => `before-${i}`);
  for (const [i, log] of logIds.entries()) await sendToLog(w, log, [io.request(before[i]!, 'vendor', LOW_RISK)]);
  expect(await Promise.all(before.map(async (id) => (await io.entryOf(id)).logId))).toEqual(logIds);
  // An honest checkpoint of every log, before the victim: the logs are registered, the victim not yet covered.
  const honest = await cli(checkpoint, ['--key', key, '--policy', policy, '--out', checkpoints, ...flags()]);
  expect(honest.code, honest.err).toBe(0);
  const facts = join(dir, 'facts.json');
  writeFileSync(facts, LOW_RISK);
  const vendor = `sha256:${io.digests.vendor}`;
  const waited = await cli(submit, [
    '--pack',
    vendor,
    '--facts',
    facts,
    '--id',
    'victim',
    '--wait',
    '--json',
    '--policy',
    policy,
    ...flags(),
  ]);
  expect(waited.code, waited.err).toBe(0);
  const saved = join(dir, 'victim-result.json');
  writeFileSync(saved, waited.out);
  const line = JSON.parse(waited.out) as { entry: string };
  const parsed = parseStoredEntry(line.entry);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const victim = parsed.value.entry;

  // Before any checkpoint covers it, the saved result proves nothing either way: exit 3.
  const early = await cli(verifyReceipt, [saved, '--policy', policy, ...flags()]);
  expect(early.code, early.err).toBe(3);
  expect(JSON.parse(early.out)).toMatchObject({ ok: false, notYet: { code: 'not-checkpointed', seq: victim.seq } });

  // The attacker: the newest entry of the victim's log, its claim and its batch marker (and a position item, had
  // one been written), deleted with the DynamoDB API.
  const table = w.env.LEDGER_TABLE!;
  const del = (pk: string, sk: string) =>
    w.dynamodb.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: pk }, sk: { N: sk } } }));
  const head = await w.store.readHead(victim.logId);
  expect(head?.seq).toBe(victim.seq);
  // Submitted alone and waited for, it was written alone: its item holds it only.
  expect(await deleteEntryItemAt(w.dynamodb, table, victim.logId, victim.seq)).toBe(victim.seq);
  await del('req#victim', '0');
  await del('req#victim', '1');
  expect(await unmarkFrom(w.dynamodb, table, victim.logId, victim.seq)).toBe(1);
  // The checkpoint writer runs the archive cross-check first: it signs no log over the open omission (ADR 0457).
  const signed = await cli(checkpoint, ['--key', key, '--policy', policy, '--out', checkpoints, ...flags()]);
  expect(signed.code, signed.err).toBe(1);
  expect(signed.err).toContain(
    `${victim.logId}: checkpoint refused (nothing signed): request-without-entry of request victim`,
  );

  const audit = await cli(verify, ['--policy', policy, '--checkpoints', checkpoints, ...flags()]);
  expect(audit.code, audit.out).toBe(1);
  const verdict = JSON.parse(audit.out) as { ok: boolean; findings: Record<string, unknown>[] };
  expect(verdict.ok).toBe(false);
  expect(verdict.findings).toEqual([
    { code: 'request-without-entry', requestId: 'victim', requestDigest: victim.requestDigest },
  ]);

  // The log now ends at the victim's seq and its last entry is the victim's predecessor: the saved signed entry
  // itself proves the log reached that seq, so the requester gets the omission now, not "no verdict" (ADR 0461).
  const cut = await cli(verifyReceipt, [saved, '--policy', policy, ...flags()]);
  expect(cut.code, cut.out + cut.err).toBe(1);
  expect(JSON.parse(cut.out)).toEqual({
    ok: false,
    findings: [{ code: 'entry-omitted', logId: victim.logId, seq: victim.seq, logEnd: victim.seq }],
  });

  // Then the archived request too, and the slot refilled by new requests (after a cold start: a warm writer's head
  // cache still knows the deleted entry) and checkpointed.
  await w.dynamodb.send(
    new DeleteItemCommand({
      TableName: w.env.REQUESTS_TABLE!,
      Key: { pk: { S: `request#${victim.requestDigest}` }, sk: { S: 'request' } },
    }),
  );
  await w.coldStart();
  // Two new requests on the victim's log (one ledger message under its group): the first takes the deleted entry's slot.
  const after = ['after-0', 'after-1'];
  await sendToLog(
    w,
    victim.logId,
    after.map((id) => io.request(id, 'vendor', LOW_RISK)),
  );
  for (const id of after) expect((await io.entryOf(id)).logId).toBe(victim.logId);
  const refilled = await w.store.readHead(victim.logId);
  expect(refilled!.seq).toBeGreaterThanOrEqual(victim.seq);
  const again = await cli(checkpoint, ['--key', key, '--policy', policy, '--out', checkpoints, ...flags()]);
  expect(again.code, again.err).toBe(0);

  // With the archive gone verify has nothing left to compare: the requester's saved answer is what catches it.
  const late = await cli(verifyReceipt, [saved, '--policy', policy, ...flags()]);
  expect(late.code, late.out + late.err).toBe(1);
  const receiptVerdict = JSON.parse(late.out) as { ok: boolean; findings: { code: string; seq?: number }[] };
  expect(receiptVerdict.ok).toBe(false);
  expect(receiptVerdict.findings).toEqual([
    expect.objectContaining({ code: 'entry-omitted', logId: victim.logId, seq: victim.seq }),
  ]);
}, 240_000);

it('an honest stage with idle queues verifies ok, archive cross-check included', async () => {
  await io.submit(io.request('honest-1', 'vendor', LOW_RISK));
  await io.entryOf('honest-1');
  // A fresh stage would be cleaner; here the deleted victim's archive item is gone, so only honest requests remain.
  const r = await w.verify();
  const v = JSON.parse(r.stdout) as { ok: boolean; findings: { code: string }[]; summary: { archive?: unknown } };
  expect(v.findings.filter((f) => f.code === 'request-without-entry')).toEqual([]);
  expect(v.summary.archive).toMatchObject({ excused: [] });
}, 120_000);
