/**
 * Over the wire on the local stack (started here on port 0): a request whose envelope is well formed but whose facts
 * document repeats a member name is recorded as the `malformed-input` error `docket evaluate` gives for those facts
 * bytes (ADR 0176), while a repeated envelope member still goes to the rejects queue as `request-not-json`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as evaluate } from '../../cli/commands/evaluate.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as show } from '../../cli/commands/show.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { startE2e, type E2eWorld } from './harness.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const STAGE = 'malformed';
let w: E2eWorld;
let stackFlags: string[];
const dir = mkdtempSync(join(tmpdir(), 'docket-malformed-e2e-'));
const PACK = join(process.cwd(), 'examples', 'vendor-onboarding-target.json');
const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false,"sanctioned":true}}';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  w = await startE2e({ stage: STAGE });
  stackFlags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', STAGE];
  const io = memoryIo();
  expect(await publish([PACK, ...stackFlags], io)).toBe(0);
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function shown(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 150; i++) {
    const io = memoryIo();
    if ((await show([id, '--json', ...stackFlags], io)) === 0)
      return (JSON.parse(io.out()) as { entry: Record<string, unknown> }).entry;
    await sleep(200);
  }
  throw new Error(`${id} never recorded`);
}

describe('malformed documents inside a readable request, over the local stack', () => {
  it('records the facts error docket evaluate gives for the same bytes; a duplicate envelope member goes to the rejects queue', async () => {
    writeFileSync(join(dir, 'facts.json'), FACTS);
    const io = memoryIo();
    expect(await evaluate(['--pack', PACK, '--facts', join(dir, 'facts.json')], io)).toBe(2);
    const expected = (JSON.parse(io.out()) as { error: Record<string, string> }).error;
    expect(expected).toMatchObject({ class: 'malformed-input', phase: 'preflight' });

    const digest = sha256Hex(readFileSync(PACK));
    const body = `{"format":"${REQUEST_FORMAT}","requestId":"dup-facts-1","pack":"sha256:${digest}","facts":${FACTS}}`;
    await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl('intake'), MessageBody: body }));
    const entry = await shown('dup-facts-1');
    expect(entry).toMatchObject({ kind: 'evaluation-error', error: expected, factsDigest: sha256Hex(FACTS) });
    expect(entry.requestDigest).toBe(sha256Hex(body));

    const envelope = `{"format":"${REQUEST_FORMAT}","requestId":"dup-env-1","requestId":"dup-env-2","pack":"sha256:${digest}","facts":{}}`;
    await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl('intake'), MessageBody: envelope }));
    let reason: string | undefined;
    for (let i = 0; i < 30 && reason === undefined; i++) {
      const r = await w.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: w.queueUrl('rejects'),
          MessageAttributeNames: ['All'],
          WaitTimeSeconds: 1,
        }),
      );
      const m = (r.Messages ?? []).find((x) => x.Body === envelope);
      reason = m?.MessageAttributes?.DocketReason?.StringValue;
    }
    expect(reason).toBe('request-not-json');
    expect(await findPosition(w.store, 'dup-env-1')).toBeNull();
  });
});
