/**
 * `docket publish --config --graph` over the local stack (ADR 0340): RFC 0022's worked example is published as a
 * closed set (its packs, its subgraph, then the root), each graph under its closure digest (ADR 0450), every read
 * re-checks the set, a graph whose members are missing or differ from their pins is refused, and an id@version
 * already published names nothing else (a re-publication with other bytes is refused by the conditional create).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { DynamoDbGraphRegistry } from '../../adapters/dynamodb-graph-registry.js';
import { DynamoDbPackRegistry, RegistryIntegrityError } from '../../adapters/dynamodb-pack-registry.js';
import { ContentTable } from '../../adapters/content-table.js';
import { closureDigest, closureOf } from '../../core/graph-closure/index.js';
import { startE2e, type E2eWorld } from './harness.js';

let w: E2eWorld;
let graphs: DynamoDbGraphRegistry;
let flags: string[];
const dir = mkdtempSync(join(tmpdir(), 'docket-graph-publish-'));
const example = join(process.cwd(), 'examples/graphs/procurement-triage');
const rootGraph = 'graphs/procurement-triage.graph.json';
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const ROOT_ALIAS = 'https://example.com/graphs/procurement-triage@0.1.0';

/** A private copy of the example project, changed by `edit`. */
function copyProject(name: string, edit: (root: string) => void = () => {}): string {
  const root = join(dir, name);
  cpSync(example, root, { recursive: true });
  edit(root);
  return root;
}

/** The digest a graph of a project is published under: its closure record's (ADR 0450). */
async function publishedAs(project: string, graph: string): Promise<string> {
  const { readProject } = await import('../../cli/graph/project-config.js');
  const p = await readProject(join(project, 'jpack.json'), join(project, graph));
  if (!p.ok) throw new Error(p.error.message);
  const c = closureOf(new Uint8Array(readFileSync(join(project, graph))), p.project);
  const d = c.ok ? closureDigest(c.closure) : undefined;
  if (!d?.ok) throw new Error('no closure');
  return d.value;
}

async function cli(argv: string[]) {
  const io = memoryIo();
  const code = await publish([...argv, ...flags], io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  w = await startE2e({ stage: 'graphpub' });
  flags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'graphpub'];
  graphs = new DynamoDbGraphRegistry({ client: w.dynamodb, tableName: w.env.PACKS_TABLE! });
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('docket publish --config --graph over the local stack', () => {
  it('publishes every pack, then the subgraph, then the graph, and prints each graph’s closure digest and alias, the root last', async () => {
    const r = await cli(['--config', join(example, 'jpack.json'), '--graph', join(example, rootGraph)]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 4).every((l) => /^sha256:[0-9a-f]{64} {2}\S+@\S+ {2}\(pack /.test(l))).toBe(true);
    const sub = await publishedAs(example, 'graphs/sanctions-screening.graph.json');
    expect(lines[4]).toBe(`${sub}  https://example.com/graphs/sanctions-screening@0.1.0  (graph sanctions-screening)`);
    expect(lines[5]).toBe(
      `${await publishedAs(example, rootGraph)}  ${ROOT_ALIAS}  (graph ${join(example, rootGraph)})`,
    );
  });

  it('serves the published graph by alias as a re-checked closed set with every member it pins', async () => {
    const digest = await graphs.resolveGraphAlias(ROOT_ALIAS);
    expect(`sha256:${digest}`).toBe(await publishedAs(example, rootGraph));
    const g = await graphs.getGraph(digest!);
    expect(g).not.toBeNull();
    expect(Object.keys(g!.closure.packs)).toEqual([
      'ofac-screening',
      'pep-screening',
      'procurement-decision',
      'risk-aggregator',
    ]);
    expect([...g!.project.graphs.keys()]).toEqual(['sanctions-screening']);
    expect(hex(g!.bytes)).toBe(g!.digest);
    expect(g!.digest).toBe(hex(readFileSync(join(example, rootGraph))));
  });

  it('publishing the same project again is an idempotent success', async () => {
    const r = await cli(['--config', join(example, 'jpack.json'), '--graph', join(example, rootGraph), '--json']);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.out.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ kind: 'graph', published: true, alias: ROOT_ALIAS, created: false });
  });

  it('refuses, publishing nothing, a graph whose subgraph differs from its pin', async () => {
    const root = copyProject('drifted', (p) => {
      const f = join(p, 'graphs/sanctions-screening.graph.json');
      writeFileSync(f, `${readFileSync(f, 'utf8')}\n`);
    });
    // Another graph id, so nothing this test might publish could be mistaken for the first test's.
    const g = join(root, rootGraph);
    writeFileSync(g, readFileSync(g, 'utf8').replace('graphs/procurement-triage"', 'graphs/drifted"'));
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', g]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/graph-invalid/);
    expect(r.out).toBe('');
    expect(await graphs.resolveGraphAlias('https://example.com/graphs/drifted@0.1.0')).toBeNull();
  });

  it('refuses, storing no closure, the same graph id@version pinned to another closed set (a changed pack under the same name)', async () => {
    const root = copyProject('repacked', (p) => {
      const f = join(p, 'packs/procurement-decision.json');
      writeFileSync(f, readFileSync(f, 'utf8').replace('"version": "0.1.0"', '"version": "0.1.1"'));
    });
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', join(root, rootGraph)]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/graph .*procurement-triage\.graph\.json: alias-conflict/);
    const other = (await publishedAs(root, rootGraph)).slice('sha256:'.length);
    expect(await graphs.getGraph(other)).toBeNull();
    expect(await graphs.resolveGraphAlias(ROOT_ALIAS)).not.toBe(other);
  });

  it('refuses a re-publication of a pack id@version with other bytes, storing none of them', async () => {
    const f = join(example, 'packs/procurement-decision.json');
    const other = new TextEncoder().encode(`${readFileSync(f, 'utf8')} `);
    const { validatePack } = await import('../../core/pack/index.js');
    const plain = validatePack(other).pack?.plain as { id: string; version: string };
    const { DynamoDbPackRegistry } = await import('../../adapters/dynamodb-pack-registry.js');
    const packs = new DynamoDbPackRegistry({ client: w.dynamodb, tableName: w.env.PACKS_TABLE! });
    const out = await packs.publish(plain.id, plain.version, other);
    expect(out).toMatchObject({ ok: false, code: 'alias-conflict', existingDigest: hex(readFileSync(f)) });
    expect(await packs.getPack(hex(other))).toBeNull();
  });

  it('refuses to publish a graph whose pinned pack is not in the registry', async () => {
    const root = copyProject('unpublished', (p) => {
      const g = join(p, rootGraph);
      writeFileSync(g, readFileSync(g, 'utf8').replace('graphs/procurement-triage"', 'graphs/unpublished"'));
      const f = join(p, 'packs/procurement-decision.json');
      writeFileSync(f, readFileSync(f, 'utf8').replace('"version": "0.1.0"', '"version": "0.2.0"'));
    });
    const { readProject } = await import('../../cli/graph/project-config.js');
    const bytes = new Uint8Array(readFileSync(join(root, rootGraph)));
    const p = await readProject(join(root, 'jpack.json'), join(root, rootGraph));
    if (!p.ok) throw new Error(p.error.message);
    const c = closureOf(bytes, p.project);
    if (!c.ok) throw new Error('no closure');
    const out = await graphs.publishGraph(bytes, c.closure);
    expect(out).toMatchObject({ ok: false, code: 'graph-not-closed' });
    if (!out.ok && out.code === 'graph-not-closed')
      expect(out.findings).toEqual([
        expect.objectContaining({ code: 'member-missing', member: 'pack procurement-decision' }),
      ]);
    const named = closureDigest(c.closure);
    if (!named.ok) throw new Error('no closure digest');
    expect(await graphs.getGraph(named.value.slice('sha256:'.length))).toBeNull();
  });

  it('never serves a published graph once one of its members is gone from the table', async () => {
    const root = copyProject('fragile', (p) => {
      const g = join(p, rootGraph);
      writeFileSync(g, readFileSync(g, 'utf8').replace('graphs/procurement-triage"', 'graphs/fragile"'));
      const f = join(p, 'packs/procurement-decision.json');
      writeFileSync(f, readFileSync(f, 'utf8').replace('"version": "0.1.0"', '"version": "0.3.0"'));
    });
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', join(root, rootGraph)]);
    expect(r.code).toBe(0);
    const digest = (await publishedAs(root, rootGraph)).slice('sha256:'.length);
    expect(await graphs.getGraph(digest)).not.toBeNull();
    const pack = hex(readFileSync(join(root, 'packs/procurement-decision.json')));
    await new ContentTable({ client: w.dynamodb, tableName: w.env.PACKS_TABLE! }).deleteItem(`pack#${pack}`, 'pack');
    await expect(graphs.getGraph(digest)).rejects.toBeInstanceOf(RegistryIntegrityError);
  });

  it('refuses --graph without --config as a usage error', async () => {
    const r = await cli(['--graph', join(example, rootGraph)]);
    expect(r.code).toBe(64);
  });
});

describe("docket publish runs the project's declared rows and matrices first (ADR 0431)", () => {
  const runtime = join(process.cwd(), 'examples/runtime-project');
  const FLOW = 'onboarding.graph.json';
  const packs = () => new DynamoDbPackRegistry({ client: w.dynamodb, tableName: w.env.PACKS_TABLE! });

  /** A private copy of the runtime example project, its graph renamed so each test publishes its own. */
  function runtimeCopy(name: string, edit: (root: string) => void = () => {}): string {
    const root = join(dir, name);
    cpSync(runtime, root, { recursive: true });
    const g = join(root, FLOW);
    writeFileSync(g, readFileSync(g, 'utf8').replace('"vendor-onboarding-flow"', `"${name}"`));
    edit(root);
    return root;
  }
  const failRow = (root: string) => {
    const f = join(root, 'onboarding.rows.json');
    writeFileSync(f, readFileSync(f, 'utf8').replace('"outcomeId": "decline"', '"outcomeId": "approve"'));
  };

  it('refuses a graph whose own row fails, naming the case, and publishes nothing: no pack, no graph', async () => {
    const root = runtimeCopy('failing-row-flow', failRow);
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', join(root, FLOW)]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('graph onboarding case match-declines');
    expect(r.out).toBe('');
    expect(await graphs.resolveGraphAlias('failing-row-flow@0.1.0')).toBeNull();
    expect(await graphs.getGraph((await publishedAs(root, FLOW)).slice('sha256:'.length))).toBeNull();
    expect(await packs().resolveAlias('https://example.invalid/judgment-packs/sanctions-screening@0.1.0')).toBeNull();
  });

  it('publishes a graph whose rows pass, its closure record noting the rows it passed by digest', async () => {
    const root = runtimeCopy('passing-flow');
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', join(root, FLOW)]);
    expect([r.code, r.err]).toEqual([0, expect.stringContaining('3 declared cases passed')]);
    const g = await graphs.getGraph((await publishedAs(root, FLOW)).slice('sha256:'.length));
    expect(g?.closure.testedRows).toEqual({
      digest: `sha256:${hex(readFileSync(join(root, 'onboarding.rows.json')))}`,
      cases: 3,
      passed: 3,
    });
  });

  it('publishes anyway with --skip-tests, says so, and notes no tested rows', async () => {
    const root = runtimeCopy('skipped-flow', failRow);
    const r = await cli(['--config', join(root, 'jpack.json'), '--graph', join(root, FLOW), '--skip-tests']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/--skip-tests: publishing without running/);
    const g = await graphs.getGraph((await publishedAs(root, FLOW)).slice('sha256:'.length));
    expect(g).not.toBeNull();
    expect(g!.closure.testedRows).toBeUndefined();
  });

  it('refuses packs published with --config whose matrix fails, publishing none of them', async () => {
    const root = runtimeCopy('pack-matrix', (p) => {
      const pf = join(p, 'vendor-onboarding-0.1.0.pack.json');
      writeFileSync(pf, readFileSync(pf, 'utf8').replace('vendor-onboarding"', 'vendor-onboarding-gated"'));
      const cfg = JSON.parse(readFileSync(join(p, 'jpack.json'), 'utf8')) as {
        packs: Record<string, Record<string, string>>;
      };
      cfg.packs['vendor-onboarding']!.matrix = 'm.json';
      writeFileSync(join(p, 'jpack.json'), JSON.stringify(cfg));
      const approve = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };
      writeFileSync(
        join(p, 'm.json'),
        JSON.stringify({
          cases: [
            {
              id: 'hit-approves',
              facts: { screening: { status: 'hit' } },
              evidenceAvailability: { 'screening-outcome': 'present' },
              expectedDisposition: approve,
            },
          ],
        }),
      );
    });
    const r = await cli(['--config', join(root, 'jpack.json'), join(root, 'vendor-onboarding-0.1.0.pack.json')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('pack vendor-onboarding case hit-approves');
    expect(
      await packs().resolveAlias('https://example.invalid/judgment-packs/vendor-onboarding-gated@0.1.0'),
    ).toBeNull();
  });
});
