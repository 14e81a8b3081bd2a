/**
 * A writer of the registry table rebinds what a published name means (docs/adr/0450-a-graph-is-named-by-its-closure.md),
 * over the wire on a local stack deployed with judgment-graphs, with plain PutItems as a keyless writer (or a publisher
 * holding PutItem) would. The procurement-triage example and the vendor-onboarding pack are published with `docket
 * publish`;
 *   (a) the closure item a graph digest names is overwritten with one member rebound to other bytes under the same
 *       name: a request naming that digest is recorded as the refusal graph-closure-mismatch, never run; the item is
 *       put back, and each is run once as published; then:
 *   (b) a pack alias is overwritten to a pack of other bytes with the same id and version;
 *   (c) a graph alias is overwritten to another closed set published under its own digest.
 * Each rebinding is evident: `docket verify` reports registry-rewritten for (a) and meaning-rebound for (b) and (c);
 * `docket replay` reports the first run's mismatch once its alias means something else.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as replay } from '../../cli/commands/replay.js';
import { ContentTable, type Item } from '../../adapters/content-table.js';
import { GRAPH_REQUEST_FORMAT } from '../../core/admission/index.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { closureDigest, serializeClosure, type GraphClosure } from '../../core/graph-closure/index.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { STAGE_PRESETS } from '../../infra/config.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { verifyUnder } from './verify-under.js';
import { recordedEntry, stackFlags, startE2e, type E2eWorld } from './harness.js';

const G = 'judgment-graphs';
const STAGE = 'rebind';
const EXAMPLE = join(process.cwd(), 'examples', 'graphs', 'procurement-triage');
const JPACK = join(EXAMPLE, 'jpack.json');
const ROOT = join(EXAMPLE, 'graphs', 'procurement-triage.graph.json');
const INPUTS = readFileSync(join(EXAMPLE, 'inputs.json'), 'utf8').trim();
const GRAPH_ALIAS = 'https://example.com/graphs/procurement-triage@0.1.0';
const PACK_FILE = join(process.cwd(), 'examples', 'vendor-onboarding-target.json');
const PACK_ALIAS = 'https://packs.example.org/procurement/vendor-onboarding@2.1.0';
const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'docket-rebind-'));
let w: E2eWorld;
let table: ContentTable;
/** The example's published identity (the closure digest `docket publish` printed last), and its closure. */
let named: string;
let closure: GraphClosure;

const graphRequest = (id: string, ref: string) =>
  `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"${ref}","workBudget":100000,"inputs":${INPUTS}}`;
const packRequest = (id: string) =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${PACK_ALIAS}","facts":${FACTS},"evidence":{"tax-certificate":"present"}}`;

/** PutItem with no condition: an overwrite, as a writer of the table can issue. */
const overwrite = (item: Item) => w.dynamodb.send(new PutItemCommand({ TableName: w.env.PACKS_TABLE!, Item: item }));

/** The example's closure with procurement-decision rebound to other bytes (same id and version), stored as a pack. */
async function reboundClosure(): Promise<{ closure: GraphClosure; record: Uint8Array; digest: string }> {
  const file = join(EXAMPLE, 'packs', 'procurement-decision.json');
  const bytes = new TextEncoder().encode(`${readFileSync(file, 'utf8')} `);
  await table.putContent('pack', bytes);
  const c = { ...closure, packs: { ...closure.packs, 'procurement-decision': `sha256:${hex(bytes)}` } };
  const record = serializeClosure(c);
  const d = closureDigest(c);
  if (!record.ok || !d.ok) throw new Error('no record');
  return { closure: c, record: record.value, digest: d.value.slice('sha256:'.length) };
}

const recorded = async (requestId: string, body: string): Promise<SignedEntry> =>
  (await recordedEntry(w, requestId, body)).entry;

const permitting = () =>
  trustPolicyDocument({
    keys: w.keys,
    checkpointKey: w.checkpointKeys,
    logIds: JSON.parse(w.env.LOG_IDS!) as string[],
    environment: STAGE,
    table: w.env.LEDGER_TABLE!,
    evaluatorBuilds: ['e'.repeat(64)],
    draftFeatures: [G],
  });

beforeAll(async () => {
  w = await startE2e({
    stage: STAGE,
    config: { draftFeatures: [G], routes: [...(STAGE_PRESETS.local?.routes ?? [])] },
  });
  table = new ContentTable({ client: w.dynamodb, tableName: w.env.PACKS_TABLE! });
  const io = memoryIo();
  expect(await publish(['--config', JPACK, '--graph', ROOT, '--json', ...stackFlags(w, STAGE)], io)).toBe(0);
  const last = JSON.parse(io.out().trimEnd().split('\n').at(-1)!) as { digest: string };
  named = last.digest.slice('sha256:'.length);
  const record = (await table.getItem(`graph-closure#${named}`, 'graph-closure'))?.bytes?.B;
  closure = JSON.parse(new TextDecoder().decode(record)) as GraphClosure;
  expect(await publish([PACK_FILE, ...stackFlags(w, STAGE)], memoryIo())).toBe(0);
}, 180_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a rebound registry over the wire', () => {
  it('(a) records graph-closure-mismatch, never a run, for the digest whose closure item was overwritten', async () => {
    const rebound = await reboundClosure();
    await overwrite({ ...table.key(`graph-closure#${named}`, 'graph-closure'), bytes: { B: rebound.record } });
    const e = await recorded('rb-graph-2', graphRequest('rb-graph-2', `sha256:${named}`));
    expect(e.kind === 'admission-refusal' && e.refusal.code).toBe('graph-closure-mismatch');
    // Put back, as a writer covering its tracks would: the recorded refusal stays the evidence.
    const genuine = serializeClosure(closure);
    if (!genuine.ok) throw new Error('no record');
    await overwrite({ ...table.key(`graph-closure#${named}`, 'graph-closure'), bytes: { B: genuine.value } });
  });

  it('runs the graph and the pack as published first', async () => {
    const g = await recorded('rb-graph-1', graphRequest('rb-graph-1', GRAPH_ALIAS));
    expect(g.kind === 'graph-run' && g.packs['procurement-decision']).toBe(
      hex(readFileSync(join(EXAMPLE, 'packs', 'procurement-decision.json'))),
    );
    const p = await recorded('rb-pack-1', packRequest('rb-pack-1'));
    expect(p.kind === 'disposition' && p.pack?.digest).toBe(hex(readFileSync(PACK_FILE)));
  });

  it('(b) evaluates an overwritten pack alias only as evidence: the entry records the other pack under the same id@version', async () => {
    const other = new TextEncoder().encode(`${readFileSync(PACK_FILE, 'utf8')} `);
    const { digest } = await table.putContent('pack', other);
    await overwrite({ ...table.key(`alias#${PACK_ALIAS}`, 'alias'), digest: { S: digest } });
    const e = await recorded('rb-pack-2', packRequest('rb-pack-2'));
    expect(e.pack?.digest).toBe(digest);
  });

  it('(c) runs an overwritten graph alias only as evidence: the entry records the other closed set', async () => {
    const rebound = await reboundClosure();
    await table.putIfAbsent({
      ...table.key(`graph-closure#${rebound.digest}`, 'graph-closure'),
      bytes: { B: rebound.record },
    });
    await overwrite({ ...table.key(`graph-alias#${GRAPH_ALIAS}`, 'graph-alias'), digest: { S: rebound.digest } });
    const e = await recorded('rb-graph-3', graphRequest('rb-graph-3', GRAPH_ALIAS));
    expect(e.kind === 'graph-run' && `sha256:${e.packs['procurement-decision']}`).toBe(
      rebound.closure.packs['procurement-decision'],
    );
  });

  it('docket verify reports each rebinding: registry-rewritten for (a), meaning-rebound for (b) and (c)', async () => {
    const v = await verifyUnder(w, { stage: STAGE, dir, checkpointPolicy: permitting(), policy: permitting() });
    expect(v.exitCode).toBe(1);
    const found = v.verdict.findings.map((f) => `${f.code} ${(f as { name?: string }).name ?? ''}`.trim()).sort();
    expect(found).toEqual([
      `meaning-rebound graph ${GRAPH_ALIAS}`,
      `meaning-rebound pack ${PACK_ALIAS}`,
      'registry-rewritten',
    ]);
  });

  it('docket replay reports the first graph run once its alias names another closed set', async () => {
    const io = memoryIo();
    const policy = join(dir, 'replay-policy.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(policy, permitting());
    const code = await replay(['--request', 'rb-graph-1', '--policy', policy, ...stackFlags(w, STAGE)], io);
    const line = JSON.parse(io.out().trimEnd().split('\n')[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ requestId: 'rb-graph-1', result: 'replay-mismatch' });
    expect(code).toBe(1);
  });
});
