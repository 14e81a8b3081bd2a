/**
 * The laundering attack, tried as an attacker would over the wire on the local stack with only the DynamoDB API
 * (docs/adr/0121-checkpoints-verify-before-signing.md): genuine entries are recorded by the pipeline, then a forged
 * entry — right chain link, digests and pinned key id, a signature that is not one — is put at the head of a log with
 * a plain PutItem. `docket checkpoint` must exit 1 naming it and sign nothing for that log; `docket verify` on its
 * default path must say ok:false with the forged entry's finding.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { memoryIo } from '../../cli/io.js';
import { run as checkpoint } from '../../cli/commands/checkpoint.js';
import { run as verify } from '../../cli/commands/verify.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ex, worldIo, type WorldIo } from './world-io.js';
import { entryItem } from '../../adapters/ledger-entry-item.js';

let w: E2eWorld;
let io: WorldIo;
const dir = mkdtempSync(join(tmpdir(), 'docket-forged-head-'));

beforeAll(async () => {
  w = await startE2e({ stage: 'forge' });
  io = await worldIo(w);
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const flags = () => ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'forge'];

it('refuses to checkpoint a forged head entry, names it, and verify on its default path says ok:false', async () => {
  await io.submit(io.request('genuine-1', 'leave', ex('requests/leave-long.facts.json')));
  const genuine = await io.entryOf('genuine-1');
  const logId = genuine.logId;

  // The attacker: a copy of the head entry moved to the next slot, with another request id, and no real signature.
  const body = { ...genuine.entry } as Record<string, unknown>;
  const seq = genuine.seq + 1;
  const forged = canonicalText({
    ...body,
    seq,
    prevHash: genuine.entryHash,
    requestId: 'forged-1',
    requestDigest: sha256Hex('forged-1'),
    signature: 'ab'.repeat(64),
  });
  await w.dynamodb.send(
    new PutItemCommand({
      TableName: w.env.LEDGER_TABLE!,
      Item: entryItem({
        logId,
        seq,
        body: forged,
        projection: { requestId: 'forged-1', kind: String(body.kind), entryHash: entryHashOf(forged) },
      }),
    }),
  );

  const key = join(dir, 'checkpoint-key.json');
  const policy = join(dir, 'trust-policy.json');
  const out = join(dir, 'checkpoints.json');
  writeFileSync(key, signingKeyDocument(w.checkpointKeys));
  writeFileSync(policy, w.policyText);
  const cp = memoryIo();
  expect(await checkpoint(['--key', key, '--policy', policy, '--out', out, ...flags()], cp)).toBe(1);
  expect(cp.err()).toContain(`${logId}: checkpoint refused (nothing signed): signature-mismatch at seq ${seq}`);
  const exported = JSON.parse(readFileSync(out, 'utf8')) as { checkpoints: { logId: string }[] };
  expect(exported.checkpoints.filter((c) => c.logId === logId)).toEqual([]);

  const v = memoryIo();
  expect(await verify(['--policy', policy, '--checkpoints', out, ...flags()], v)).toBe(1);
  const verdict = JSON.parse(v.out()) as { ok: boolean; findings: unknown[] };
  expect(verdict.ok).toBe(false);
  expect(verdict.findings).toContainEqual({ code: 'signature-mismatch', logId, seq });

  // The scheduled function refuses the same way: an ERROR line naming the entry and CheckpointRefusals = 1 (EMF).
  const saved = { ...process.env };
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const log = console.log;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return write(chunk as never, ...(rest as []));
  }) as typeof process.stdout.write;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    Object.assign(process.env, w.env, {
      DOCKET_CHECKPOINT_KEY_FILE: key,
      DOCKET_TRUST_POLICY_FILE: policy,
      // The archive cross-check's queues beside the evaluate function's REQUESTS_TABLE and queue URLs (ADR 0487).
      INTAKE_QUEUE_URL: w.queueUrl('intake'),
      INTAKE_DLQ_URL: w.queueUrl('intake-dlq'),
      LEDGER_DLQ_URL: w.queueUrl('ledger-dlq.fifo'),
      POWERTOOLS_METRICS_DISABLED: 'false',
    });
    const { handler } = await import('../../functions/checkpoint.js');
    const out = await handler();
    expect(out.checkpoints.find((c) => c.logId === logId)).toMatchObject({ status: 'refused', treeSize: seq + 1 });
  } finally {
    process.stdout.write = write;
    console.log = log;
    process.env = saved;
  }
  const text = lines.join('\n');
  expect(text).toContain(`"level":"ERROR"`);
  expect(text).toContain(`signature-mismatch at seq ${seq}`);
  const emf = lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"CheckpointRefusals"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(emf.map((m) => m.CheckpointRefusals)).toEqual([1]);
}, 120_000);
