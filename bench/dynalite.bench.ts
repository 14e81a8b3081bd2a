/**
 * dynalite's CPU per conditional PutItem on its own worker thread, with and without its fast paths (ADR 0256):
 *
 *   npm run build && node dist/bench/dynalite.bench.js     (BENCH_N=2000 puts per measure, BENCH_ROUNDS=3,
 *                                                           BENCH_MODES=persistent,memory)
 *
 * Each round starts a fresh dynalite as shipped and one with the fast paths, one after the other (LevelDB in a
 * temporary directory, or in memory), creates a table, warms up, then sends BENCH_N PutItems with Docket's
 * content-table condition (`attribute_not_exists(#pk)`, ~1 KB items, 8 in flight) and reads the thread's CPU time
 * from /proc (Linux; the thread is named "dynalite"; LevelDB's reads and writes run on libuv's pool, reported
 * beside it). The ratio is fast / shipped in the same round.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynalite } from '../localstack/launcher.js';

const BENCH_COMMAND = 'npm run build && node dist/bench/dynalite.bench.js';
const N = Number(process.env.BENCH_N ?? 2000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const MODES = (process.env.BENCH_MODES ?? 'persistent,memory').split(',');
const IN_FLIGHT = 8;

const HEADERS = {
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-date': '20261203T000000Z',
  authorization:
    'AWS4-HMAC-SHA256 Credential=test/20261203/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
};

/** CPU time (ms, user + system) of this process's threads named "dynalite" and "libuv-worker" (LevelDB's I/O). */
function threadCpuMs(): { dynalite: number; libuv: number } {
  const out = { dynalite: 0, libuv: 0 };
  for (const tid of readdirSync('/proc/self/task')) {
    const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    const name = comm === 'dynalite' ? 'dynalite' : comm === 'libuv-worker' ? 'libuv' : undefined;
    if (name === undefined) continue;
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    out[name] += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }
  if (out.dynalite === 0) throw new Error('no CPU seen for a thread named dynalite (Linux /proc needed)');
  return out;
}

async function call(url: string, target: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'x-amz-target': `DynamoDB_20120810.${target}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target}: ${res.status} ${text}`);
}

async function puts(url: string, from: number, count: number): Promise<void> {
  let next = from;
  const payload = 'x'.repeat(1000);
  const worker = async (): Promise<void> => {
    while (next < from + count) {
      const i = next++;
      await call(url, 'PutItem', {
        TableName: 'bench',
        Item: { pk: { S: `entry#${i}` }, body: { S: payload }, n: { N: String(i) } },
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk' },
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

interface Cost {
  readonly dynalite: number;
  readonly libuv: number;
}

async function measure(mode: string, fastPaths: boolean): Promise<Cost> {
  const dataDir = mode === 'persistent' ? mkdtempSync(join(tmpdir(), 'dynalite-bench-')) : undefined;
  const dynalite = await startDynalite({ ...(dataDir ? { dataDir } : {}), fastPaths });
  try {
    await call(dynalite.url, 'CreateTable', {
      TableName: 'bench',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    await puts(dynalite.url, 0, WARMUP);
    const before = threadCpuMs();
    await puts(dynalite.url, WARMUP, N);
    const after = threadCpuMs();
    return { dynalite: (after.dynalite - before.dynalite) / N, libuv: (after.libuv - before.libuv) / N };
  } finally {
    await dynalite.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`dynalite CPU per conditional PutItem (its thread), ${N} puts per measure, ${IN_FLIGHT} in flight`);
  for (const mode of MODES) {
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const shipped = await measure(mode, false);
      const fast = await measure(mode, true);
      const total = (c: Cost): number => c.dynalite + c.libuv;
      ratios.push(fast.dynalite / shipped.dynalite);
      const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
      console.log(
        `  ${mode} round ${round}: dynalite thread shipped ${us(shipped.dynalite)}, fast paths ${us(fast.dynalite)} ` +
          `→ fast/shipped ${(fast.dynalite / shipped.dynalite).toFixed(3)}; with LevelDB's I/O threads ` +
          `${us(total(shipped))} → ${us(total(fast))} (${(total(fast) / total(shipped)).toFixed(3)})`,
      );
    }
    ratios.sort((a, b) => a - b);
    console.log(
      `  ${mode} median fast/shipped (dynalite thread): ${ratios[Math.floor(ratios.length / 2)]?.toFixed(3)}`,
    );
  }
  console.log(`command: ${BENCH_COMMAND}`);
}

await main();
