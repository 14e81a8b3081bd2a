/**
 * Replay over the local stack (docs/replay.md): requests go through SQS and the real evaluate runtime into the
 * DynamoDB ledger, request archive and pack registry; `docket replay` then reads them back over the wire.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../adapters/sqs.js';
import { memoryIo } from '../../cli/io.js';
import { run, stackDeps } from '../../cli/commands/replay.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { startE2e, type E2eWorld } from '../e2e/harness.js';
import { exampleText } from './world.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let w: E2eWorld;
let dir: string;
let policy: string;
const digests: Record<string, string> = {};
const BUILD = 'e'.repeat(64); // the harness's evaluator build digest

beforeAll(async () => {
  w = await startE2e({ stage: 'replay' });
  dir = mkdtempSync(join(tmpdir(), 'docket-replay-e2e-'));
  policy = join(dir, 'trust-policy.json');
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  writeFileSync(
    policy,
    trustPolicyDocument({
      keys: w.keys,
      checkpointKey: w.checkpointKeys,
      logIds,
      environment: 'replay',
      table: w.env.LEDGER_TABLE!,
      evaluatorBuilds: [BUILD],
    }),
  );
  for (const [name, file] of Object.entries({
    vendor: 'vendor-onboarding-target.json',
    triage: 'data-request-intake-triage.json',
  })) {
    digests[name] = (await w.registry.putPack(new TextEncoder().encode(exampleText(file)))).digest;
  }
}, 120_000);

afterAll(async () => {
  await w?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const body = (id: string, pack: string, facts: string, extra = '') =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${pack}","facts":${facts}${extra}}`;

async function recorded(ids: readonly string[], timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await Promise.all(ids.map((id) => findPosition(w.store, id)));
    if (found.every((p) => p !== null)) return;
    if (Date.now() > until)
      throw new Error(`not recorded within ${timeoutMs} ms: ${ids.filter((_, i) => found[i] === null).join(', ')}`);
    await sleep(200);
  }
}

function replayArgs(extra: string[] = []): string[] {
  return [
    '--endpoint',
    w.stack.endpoint,
    '--region',
    w.stack.region,
    '--stage',
    'replay',
    '--table',
    w.env.LEDGER_TABLE!,
    '--packs-table',
    w.env.PACKS_TABLE!,
    '--requests-table',
    w.env.REQUESTS_TABLE!,
    '--policy',
    policy,
    ...extra,
  ];
}
const deps = { ...stackDeps, buildDigest: () => BUILD };
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('docket replay over the local stack', () => {
  it('replays a whole ledger written through the pipeline and every entry matches', async () => {
    const triageFacts = exampleText('requests/triage-complete-appropriate.facts.json');
    const requests = [
      body(
        'rp-outcome',
        digests.vendor!,
        '{"vendor":{"riskScore":"12.5","sanctioned":false}}',
        ',"evidence":{"tax-certificate":"present"}',
      ),
      body('rp-escalate', digests.vendor!, '{"vendor":{"riskScore":"45","sanctioned":false}}'),
      body('rp-error', digests.vendor!, '{"vendor":{}}', ',"evidence":{"tax-certificate":"maybe"}'),
      body('rp-budget', digests.triage!, triageFacts, ',"workBudget":10'),
      body(
        'rp-triage',
        digests.triage!,
        triageFacts,
        `,"evidence":${exampleText('requests/triage-instance-7b.evidence.json')}`,
      ),
      body('rp-refused', '0'.repeat(64), '{}'),
    ];
    for (const r of requests) await sendMessage(w.sqs, w.queueUrl('intake'), { body: r });
    await recorded(['rp-outcome', 'rp-escalate', 'rp-error', 'rp-budget', 'rp-triage', 'rp-refused']);

    const io = memoryIo();
    const code = await run(replayArgs(), io, deps);
    const out = lines(io.out());
    const entries = out.slice(0, -1);
    expect(entries.map((l) => l.requestId).sort()).toEqual([
      'rp-budget',
      'rp-error',
      'rp-escalate',
      'rp-outcome',
      'rp-refused',
      'rp-triage',
    ]);
    expect(new Set(entries.map((l) => l.kind))).toEqual(
      new Set(['disposition', 'evaluation-error', 'admission-refusal']),
    );
    expect(entries.filter((l) => l.result !== 'replay-match')).toEqual([]);
    expect(out.at(-1)).toEqual({
      summary: { entries: 6, match: 6, mismatch: 0, notReplayable: 0, reasons: {}, ok: true },
    });
    expect(code).toBe(0);
  });

  it('says request-purged once the archive item is deleted, while the entry still verifies', async () => {
    const p = await findPosition(w.store, 'rp-outcome');
    expect(p).not.toBeNull();
    let digest = '';
    for await (const e of w.store.readEntries(p!.logId, p!.seq, p!.seq)) {
      const parsed = parseStoredEntry(e.body);
      if (parsed.ok) digest = parsed.value.entry.requestDigest;
    }
    expect(await w.archive.get(digest)).not.toBeNull();
    await w.archive.purge(digest);
    const io = memoryIo();
    expect(await run(replayArgs(['--request', 'rp-outcome']), io, deps)).toBe(1);
    expect(lines(io.out())[0]).toMatchObject({
      requestId: 'rp-outcome',
      result: 'not-replayable',
      reason: 'request-purged',
    });
  });
});
