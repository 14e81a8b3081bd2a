/**
 * End-to-end throughput and latency on the local stack: submit → ledger entry (issue 4 "Numbers"; goal ≥ 300
 * requests/s on 2 cores, nothing lost). The stack runs in its own process (localstack/daemon.ts startStackProcess)
 * with the event-source poller invoking the real built handler (dist/functions/evaluate.js), as `npm start` does.
 *
 *   npm run build && node dist/bench/pipeline.bench.js          (BENCH_N=1000 measured after BENCH_WARMUP=1000)
 *
 * Latency = time from the SendMessageBatch that carried a request to the moment this process first sees its entry
 * (log heads polled every 50 ms, so figures include up to 50 ms of polling). Same-run baseline = raw SQS on the same
 * stack: the same number of messages sent in batches of 10 and received+deleted by one consumer — the floor any
 * SQS-driven pipeline on this stack pays — reported as a ratio.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { startStackProcess } from '../localstack/daemon.js';
import { REQUEST_FORMAT } from '../core/pipeline/request-format.js';
import { resolveSettings } from '../core/pipeline/settings.js';
import { ensureSigningKey } from '../functions/lib/local-files.js';
import { openStack } from '../functions/lib/stack-clients.js';
import { resolveConfig } from '../infra/config.js';
import { resourceNames } from '../infra/names.js';

const BENCH_COMMAND = 'npm run build && node dist/bench/pipeline.bench.js';
const N = Number(process.env.BENCH_N ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const root = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'docket-bench-'));
  const keyFile = join(dir, 'key.json');
  ensureSigningKey(keyFile);
  const stack = await startStackProcess({
    port: 0,
    stage: 'bench',
    handlers: [{ module: join(root, 'dist/functions/evaluate.js') }],
    env: { DOCKET_SIGNING_KEY_FILE: keyFile, POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
  });
  const s = openStack(resolveSettings({ endpoint: stack.endpoint, stage: 'bench', region: stack.region }, {}));
  try {
    const packBytes = new Uint8Array(readFileSync(join(root, 'examples/vendor-onboarding-target.json')));
    const { digest } = await s.registry.putPack(packBytes);
    const intake = await s.queueUrl(s.settings.intakeQueue);

    // Baseline: raw SQS on the same stack (a route queue nobody polls).
    const raw = await s.queueUrl('docket-bench-unrouted');
    const t0 = performance.now();
    for (let i = 0; i < N; i += 10) await s.sqs.send(new SendMessageBatchCommand({ QueueUrl: raw, Entries: Array.from({ length: Math.min(10, N - i) }, (_, j) => ({ Id: String(j), MessageBody: `m${i + j}` })) }));
    let got = 0;
    while (got < N) {
      const r = await s.sqs.send(new ReceiveMessageCommand({ QueueUrl: raw, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      const ms = r.Messages ?? [];
      if (ms.length === 0) continue;
      got += ms.length;
      await s.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: raw, Entries: ms.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })) }));
    }
    const rawPerSec = N / ((performance.now() - t0) / 1000);

    // The pipeline: bursts of requests (half outcome, half a target handoff), submitted as fast as SQS takes them.
    // A warm-up burst first (not counted): a deployed pipeline runs warm — JIT-compiled handler and SDK, open
    // connections, cached packs and log heads — and the first seconds of a cold process measure its start, not its rate.
    const facts = ['{"vendor":{"riskScore":"12.5","sanctioned":false}}', '{"vendor":{"riskScore":"45","sanctioned":false}}'];
    const seenAt = new Map<string, number>();
    const next = new Map<string, number>();
    let polling = true;
    // The deployed logs are configuration (infra/names.ts): reading them directly keeps the observer's own cost to
    // one small Query per log, where listLogs would Scan the whole (growing) table every 50 ms on the same stack.
    const logs = resourceNames('bench', resolveConfig({ stage: 'bench' })).logIds;
    const poll = (async () => {
      while (polling) {
        for (const log of logs) {
          for await (const e of s.store.readEntries(log, next.get(log) ?? 0)) {
            if (!seenAt.has(e.projection.requestId)) seenAt.set(e.projection.requestId, performance.now());
            next.set(log, e.seq + 1);
          }
        }
        await sleep(50);
      }
    })();
    const burst = async (prefix: string, count: number) => {
      const sentAt = new Map<string, number>();
      const start = performance.now();
      for (let i = 0; i < count; i += 10) {
        const ids = Array.from({ length: Math.min(10, count - i) }, (_, j) => `${prefix}-${i + j}`);
        const at = performance.now();
        await s.sqs.send(new SendMessageBatchCommand({
          QueueUrl: intake,
          Entries: ids.map((id, j) => ({ Id: String(j), MessageBody: `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${digest}","facts":${facts[(i + j) % 2]},"evidence":{"tax-certificate":"present"}}` })),
        }));
        for (const id of ids) sentAt.set(id, at);
      }
      const submitSecs = (performance.now() - start) / 1000;
      const deadline = performance.now() + Math.max(120_000, count * 500);
      while ([...sentAt.keys()].some((id) => !seenAt.has(id)) && performance.now() < deadline) await sleep(100);
      const lat = [...sentAt].filter(([id]) => seenAt.has(id)).map(([id, at]) => seenAt.get(id)! - at).sort((a, b) => a - b);
      const last = Math.max(...[...sentAt.keys()].filter((id) => seenAt.has(id)).map((id) => seenAt.get(id)!));
      return { lat, submitSecs, secs: (last - start) / 1000 };
    };
    const cold = WARMUP > 0 ? await burst('warmup', WARMUP) : undefined;
    const { lat, submitSecs, secs } = await burst('bench', N);
    polling = false;
    await poll;
    const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!.toFixed(0);
    console.log(`pipeline on the local stack: ${N} requests after ${WARMUP} warm-up requests, submit → signed ledger entry (stack in its own process)`);
    console.log(`  recorded            : ${lat.length}/${N}${lat.length === N ? ' (nothing lost)' : ' — MISSING ENTRIES'}`);
    console.log(`  submit rate         : ${(N / submitSecs).toFixed(0)} requests/s`);
    console.log(`  throughput          : ${(lat.length / secs).toFixed(1)} requests/s   goal ≥ 300`);
    console.log(`  latency p50 / p99   : ${pct(50)} ms / ${pct(99)} ms`);
    if (cold) console.log(`  cold first burst    : ${(cold.lat.length / cold.secs).toFixed(1)} requests/s, ${cold.lat.length}/${WARMUP} recorded (the warm-up, from a fresh stack)`);
    console.log(`  baseline raw SQS    : ${rawPerSec.toFixed(0)} messages/s sent+received+deleted → pipeline/baseline ${(lat.length / secs / rawPerSec).toFixed(3)}`);
    console.log(`  command: ${BENCH_COMMAND}`);
  } finally {
    s.close();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
