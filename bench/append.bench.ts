/**
 * Appends per second on ONE ledger log over the local stack, with 1, 4 and 16 concurrent writers,
 * each next to a same-run baseline: raw unconditional PutItem/s of the same item through the same
 * endpoint at the same concurrency. The append protocol's cost is the ratio. After each run the log is read back:
 * contiguous from 0 (no gap), one entry per slot and per request (no fork, no duplicate), prevHash chain intact.
 *
 *   npm run build && node dist/bench/append.bench.js [--appends 120] [--in-process]
 *
 * By default the stack runs in its own process (dist/localstack/serve.js), as `docket local start` runs it, so the
 * emulators and the writers do not share one core.
 */
import './support/node-crypto.js';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../adapters/dynamodb-ledger-store.js';
import { appendOnce } from '../core/ledger/write/append.js';
import { buildEntry, entryHashOf, type BuiltEntry } from '../core/ledger/entries/entry.js';
import { keyPairFromSeed, signerFromKeyPair } from '../core/ledger/primitives/signature.js';
import { startStackProcess } from '../localstack/daemon.js';
import { startLocalStack } from '../localstack/launcher.js';
import { refusalEntryBody } from './support/refusal-entry.js';
import { entryItem } from '../adapters/ledger-entry-item.js';

const STAGE = 'bench';
const TABLE = `docket-${STAGE}-ledger`;
const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(42)));
const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

function entryFor(slot: { logId: string; seq: number; prevHash: string | null }, requestId: string): BuiltEntry {
  return buildEntry(
    refusalEntryBody({
      slot,
      requestId,
      requestDigest: sha(requestId),
      packDigest: sha('bench-pack'),
      evaluator: { name: 'docket', version: '0.1.0', buildDigest: sha('bench-build') },
      time: '2026-12-02T00:00:00Z',
      keyId: signer.keyId,
      refusal: { code: 'unknown-pack-digest', message: 'benchmark entry' },
    }),
    signer,
  );
}

async function runWriters(
  writers: number,
  total: number,
  work: (index: number, writer: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = next++; i < total; i = next++) await work(i, w);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function appendRun(
  clients: DynamoDBClient[],
  writers: number,
  total: number,
  runId: string,
): Promise<{ perSecond: number; logId: string }> {
  const logId = `b${writers}-${runId}`;
  const stores = clients.slice(0, writers).map((client) => new DynamoDbLedgerStore({ client, tableName: TABLE }));
  const seconds = await runWriters(writers, total, async (i, w) => {
    const requestId = `${logId}-r${i}`;
    const r = await appendOnce(stores[w]!, {
      requestId,
      requestDigest: sha(requestId),
      logIds: [logId],
      build: (slot) => entryFor(slot, requestId),
    });
    if (!r.ok) throw new Error(`append refused: ${r.error.code}`);
  });
  await audit(stores[0]!, logId, total);
  return { perSecond: total / seconds, logId };
}

async function baselineRun(clients: DynamoDBClient[], writers: number, total: number, runId: string): Promise<number> {
  const sample = entryFor({ logId: 'baseline', seq: 0, prevHash: null }, 'baseline');
  const seconds = await runWriters(writers, total, async (i, w) => {
    await clients[w]!.send(
      new PutItemCommand({
        TableName: TABLE,
        // The same item the store writes (adapters/ledger-entry-item.ts), under a key no log uses.
        Item: {
          ...entryItem({
            logId: 'baseline',
            seq: i,
            body: sample.body,
            projection: { requestId: `raw-${i}`, kind: 'admission-refusal', entryHash: sample.entryHash },
          }),
          pk: { S: `raw#${writers}-${runId}` },
        },
      }),
    );
  });
  return total / seconds;
}

/** No gap (seq 0..n-1), no fork (one entry per slot, chain intact), one entry per request. */
async function audit(store: DynamoDbLedgerStore, logId: string, expected: number): Promise<void> {
  let seq = 0;
  let prev: string | null = null;
  const requests = new Set<string>();
  for await (const e of store.readEntries(logId, 0)) {
    if (e.seq !== seq) throw new Error(`gap: expected seq ${seq}, found ${e.seq} in ${logId}`);
    const parsed = JSON.parse(e.body) as { prevHash: string | null; requestId: string };
    if (parsed.prevHash !== prev) throw new Error(`fork: prevHash of ${logId}/${seq} does not name entry ${seq - 1}`);
    if (requests.has(parsed.requestId)) throw new Error(`duplicate entry for ${parsed.requestId}`);
    requests.add(parsed.requestId);
    prev = entryHashOf(e.body);
    seq++;
  }
  if (seq !== expected) throw new Error(`${logId} holds ${seq} entries, expected ${expected}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { appends: { type: 'string', default: '120' }, 'in-process': { type: 'boolean', default: false } },
  });
  const total = Number(values.appends);
  const inProcess = values['in-process'] === true;
  const stack = inProcess
    ? await startLocalStack({ port: 0, stage: STAGE })
    : await startStackProcess({ port: 0, stage: STAGE });
  const clients = Array.from({ length: 16 }, () => createDynamoDbClient({ endpoint: stack.endpoint }));
  const runId = Date.now().toString(36);
  const rows: string[] = [];
  try {
    // Warm-up: connections, JIT, dynalite's first writes.
    await appendRun(clients, 4, 40, `warm-${runId}`);
    await baselineRun(clients, 4, 40, `warm-${runId}`);
    for (const writers of [1, 4, 16]) {
      const baseline = await baselineRun(clients, writers, total, runId);
      const append = await appendRun(clients, writers, total, runId);
      rows.push(
        `${String(writers).padStart(7)}  ${append.perSecond.toFixed(0).padStart(10)}  ${baseline.toFixed(0).padStart(12)}  ${(append.perSecond / baseline).toFixed(3).padStart(6)}  ok (${total} entries, seq 0..${total - 1}, chain intact)`,
      );
    }
  } finally {
    for (const c of clients) c.destroy();
    await stack.stop();
  }
  process.stdout.write(
    [
      `append protocol on one log over the local stack (${inProcess ? 'stack in this process' : 'stack in its own process'}), ${total} appends per run`,
      'writers  appends/s  baseline put/s   ratio  no fork / no gap',
      ...rows,
      'baseline = raw unconditional PutItem of the same item through the same endpoint at the same concurrency',
      `reproduce: npm run build && node dist/bench/append.bench.js --appends ${total}${inProcess ? ' --in-process' : ''}`,
      '',
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
