import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, createSqsClient } from '../../adapters/aws-clients.js';
import { sendMessages } from '../../adapters/sqs.js';
import { LocalStackStartError, readStackState, startDaemon, stopDaemon } from '../../localstack/daemon.js';
import { buildServeEntry } from './build-serve.js';

let entry: string;
let work: string;

beforeAll(async () => {
  entry = await buildServeEntry();
  work = mkdtempSync(join(tmpdir(), 'docket-daemon-'));
});
afterAll(async () => {
  // Whatever a failed test left running is stopped here, by the pid in its own state file.
  for (const dir of ['a', 'b', 'c', 'd', 'e']) await stopDaemon({ stateDir: join(work, dir) }).catch(() => undefined);
  rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Alive and not a zombie (a killed child this process has not reaped yet still takes signal 0). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the local stack daemon', () => {
  it('starts detached, records endpoint and pid in stack.json, logs to stack.log, and stops cleanly', async () => {
    const stateDir = join(work, 'a');
    const state = await startDaemon({ stateDir, port: 0, dataDir: null, stage: 'dmn', entry });
    expect(state.alreadyRunning).toBe(false);
    expect(state.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(isAlive(state.pid)).toBe(true);
    expect(JSON.parse(readFileSync(join(stateDir, 'stack.json'), 'utf8'))).toMatchObject({
      endpoint: state.endpoint,
      pid: state.pid,
    });
    expect(readFileSync(join(stateDir, 'stack.log'), 'utf8')).toMatch(/stack ready on/);
    expect(state.queues['docket-dmn-intake']).toBe(`${state.endpoint}/000000000000/docket-dmn-intake`);
    expect((await fetch(`${state.endpoint}/_localstack/health`)).status).toBe(200);

    const again = await startDaemon({ stateDir, port: 0, dataDir: null, stage: 'dmn', entry });
    expect(again).toMatchObject({ alreadyRunning: true, pid: state.pid });

    const stopped = await stopDaemon({ stateDir });
    expect(stopped).toMatchObject({ stopped: true, pid: state.pid, killed: false, report: { pid: state.pid } });
    // The stop report counts every queue of the template, after the drain.
    expect(stopped.stopped && stopped.report?.queues.map((q) => q.queue)).toContain('docket-dmn-intake');
    expect(isAlive(state.pid)).toBe(false);
    expect(existsSync(join(stateDir, 'stack.json'))).toBe(false);
    expect(readStackState(stateDir)).toBeNull();
    await expect(fetch(`${state.endpoint}/health`)).rejects.toThrow();
    expect(await stopDaemon({ stateDir })).toEqual({ stopped: false });
  });

  it('runs the real handler module under the event-source poller, on its own thread, with the function environment of the template', async () => {
    const stateDir = join(work, 'b');
    const handlerFile = join(work, 'handler.mjs');
    const recordFile = join(work, 'records.jsonl');
    writeFileSync(
      handlerFile,
      `import { appendFileSync } from 'node:fs';
       import { isMainThread } from 'node:worker_threads';
       export const handler = async (event) => {
         for (const r of event.Records) appendFileSync(process.env.RECORD_FILE, JSON.stringify({ body: r.body, table: process.env.LEDGER_TABLE, endpoint: process.env.AWS_ENDPOINT_URL, dynamodb: process.env.AWS_ENDPOINT_URL_DYNAMODB, sqs: process.env.AWS_ENDPOINT_URL_SQS, sns: process.env.AWS_ENDPOINT_URL_SNS, mainThread: isMainThread }) + '\\n');
         return { batchItemFailures: [] };
       };\n`,
    );
    const state = await startDaemon({
      stateDir,
      port: 0,
      dataDir: null,
      stage: 'dmnh',
      entry,
      // The evaluate function's source only: the FIFO ledger queue (ADR 0270).
      handlers: [{ module: handlerFile, functionMatch: 'EvaluatorEvaluate' }],
      env: { RECORD_FILE: recordFile },
    });
    expect(state.pollers).toEqual([
      { queue: 'docket-dmnh-ledger.fifo', function: expect.stringContaining('Evaluate'), module: handlerFile },
    ]);
    const sqs = createSqsClient({ endpoint: state.endpoint });
    await sendMessages(sqs, state.queues['docket-dmnh-ledger.fifo']!, [
      { body: 'r1', groupId: 'dmnh-0', deduplicationId: 'd1' },
      { body: 'r2', groupId: 'dmnh-1', deduplicationId: 'd2' },
    ]);
    sqs.destroy();
    await waitFor(() => existsSync(recordFile) && readFileSync(recordFile, 'utf8').trim().split('\n').length === 2);
    const records = readFileSync(recordFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(records.map((r) => r.body).sort()).toEqual(['r1', 'r2']);
    expect(records[0]).toMatchObject({ table: 'docket-dmnh-ledger', endpoint: state.endpoint });
    // The function runs on a thread of its own (ADR 0068) and reaches DynamoDB at the emulator's own port.
    expect(records[0]!.mainThread).toBe(false);
    expect(records[0]!.dynamodb).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(records[0]!.dynamodb).not.toBe(state.endpoint);
    // Its queue and topic calls go to the SQS/SNS emulator's own port too (ADR 0251), never through the edge.
    expect(records[0]!.sqs).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(records[0]!.sqs).not.toBe(state.endpoint);
    expect(records[0]!.sqs).not.toBe(records[0]!.dynamodb);
    expect(records[0]!.sns).toBe(records[0]!.sqs);
    await stopDaemon({ stateDir });
    expect(isAlive(state.pid)).toBe(false);
  });

  it('started with a draft feature, gives the evaluate function DRAFT_FEATURES and records it in stack.json', async () => {
    const stateDir = join(work, 'e');
    const handlerFile = join(work, 'draft-handler.mjs');
    const recordFile = join(work, 'draft-records.jsonl');
    writeFileSync(
      handlerFile,
      `import { appendFileSync } from 'node:fs';
       export const handler = async (event) => {
         for (const r of event.Records) appendFileSync(process.env.RECORD_FILE, JSON.stringify({ draft: process.env.DRAFT_FEATURES ?? null }) + '\\n');
         return { batchItemFailures: [] };
       };\n`,
    );
    const state = await startDaemon({
      stateDir,
      port: 0,
      dataDir: null,
      stage: 'dmnq',
      entry,
      draftFeatures: ['rfc0008-quantifiers'],
      handlers: [{ module: handlerFile }],
      env: { RECORD_FILE: recordFile },
    });
    expect(state.draftFeatures).toEqual(['rfc0008-quantifiers']);
    expect(readStackState(stateDir)?.draftFeatures).toEqual(['rfc0008-quantifiers']);
    const sqs = createSqsClient({ endpoint: state.endpoint });
    await sendMessages(sqs, state.queues['docket-dmnq-intake']!, [{ body: 'q1' }]);
    sqs.destroy();
    await waitFor(() => existsSync(recordFile) && readFileSync(recordFile, 'utf8').trim() !== '');
    expect(JSON.parse(readFileSync(recordFile, 'utf8').trim())).toEqual({ draft: '["rfc0008-quantifiers"]' });
    await stopDaemon({ stateDir });
  });

  it('keeps tables across a restart when given a data directory', async () => {
    const stateDir = join(work, 'c');
    const first = await startDaemon({ stateDir, port: 0, stage: 'dmnp', entry });
    let ddb = createDynamoDbClient({ endpoint: first.endpoint });
    await ddb.send(
      new PutItemCommand({
        TableName: 'docket-dmnp-ledger',
        Item: { pk: { S: 'log#x' }, sk: { N: '0' }, body: { S: 'kept' } },
      }),
    );
    ddb.destroy();
    await stopDaemon({ stateDir });
    const second = await startDaemon({ stateDir, port: 0, stage: 'dmnp', entry });
    expect(second.pid).not.toBe(first.pid);
    ddb = createDynamoDbClient({ endpoint: second.endpoint });
    const got = await ddb.send(
      new GetItemCommand({ TableName: 'docket-dmnp-ledger', Key: { pk: { S: 'log#x' }, sk: { N: '0' } } }),
    );
    ddb.destroy();
    expect(got.Item?.body?.S).toBe('kept');
    await stopDaemon({ stateDir });
  });

  it('reports a stack that cannot start with the end of its log, and leaves no process behind', async () => {
    const stateDir = join(work, 'd');
    const error = await startDaemon({
      stateDir,
      port: 0,
      dataDir: null,
      stage: 'dmnf',
      entry,
      handlers: [{ module: join(work, 'missing.mjs') }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalStackStartError);
    expect((error as Error).message).toMatch(/missing\.mjs/);
    expect(readStackState(stateDir)).toBeNull();
  });
});
