/**
 * The one project reader's file-system half (cli/project/read-project.ts): containment at access time (a symlinked
 * component pointing out, a final component that is a symlink, a non-file), `expectedVersion` against the pack
 * document, `audit` refused where it would take effect (ADR 0430), and the runtime's example project loading as it is.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../cli/project/read-project.js';
import { cli, EX } from '../cli/helpers.js';

const RUNTIME = join(EX, 'runtime-project');

function project(config: unknown, edit: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'docket-project-'));
  cpSync(RUNTIME, dir, { recursive: true });
  writeFileSync(join(dir, 'jpack.json'), JSON.stringify(config));
  edit(dir);
  return join(dir, 'jpack.json');
}

const runtimeConfig = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(RUNTIME, 'jpack.json'), 'utf8')) as Record<string, unknown>;

const refusedAs = async (configPath: string): Promise<[string, string] | undefined> => {
  const r = await loadProject(configPath);
  return r.ok || r.error.kind !== 'config' ? undefined : [r.error.error.code, r.error.error.member];
};

const PACK = 'sanctions-screening-0.1.0.pack.json';

describe('the project reader', () => {
  it('loads the runtime example project unchanged: both packs and the graph read', async () => {
    const r = await loadProject(join(RUNTIME, 'jpack.json'));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect([...r.project.packs.keys()]).toEqual(['sanctions-screening', 'vendor-onboarding']);
    expect([...r.project.packs.values(), ...r.project.graphs.values()].every((f) => f.ok)).toBe(true);
    expect(r.project.config.graphs.get('onboarding')).toMatchObject({ rows: 'onboarding.rows.json' });
  });

  it('refuses a pack path reaching outside through a symlinked directory, naming the member', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docket-outside-'));
    writeFileSync(join(outside, 'p.json'), '{}');
    const c = project({ configVersion: '1', packs: { a: { path: 'link/p.json' } } }, (d) =>
      symlinkSync(outside, join(d, 'link')),
    );
    expect(await refusedAs(c)).toEqual(['config-path-outside', '/packs/a/path']);
  });

  it('refuses a declared file that is itself a symlink, even to a file inside', async () => {
    const c = project({ configVersion: '1', packs: { a: { path: 'alias.json' } } }, (d) =>
      symlinkSync(join(d, PACK), join(d, 'alias.json')),
    );
    expect(await refusedAs(c)).toEqual(['config-path-not-file', '/packs/a/path']);
  });

  it('refuses a declared path that is a directory', async () => {
    const c = project({ configVersion: '1', packs: { a: { path: 'sub' } } }, (d) => mkdirSync(join(d, 'sub')));
    expect(await refusedAs(c)).toEqual(['config-path-not-file', '/packs/a/path']);
  });

  it('follows a symlinked directory that stays inside', async () => {
    const c = project({ configVersion: '1', packs: { a: { path: 'same/' + PACK } } }, (d) =>
      symlinkSync(d, join(d, 'same')),
    );
    expect(await refusedAs(c)).toBeUndefined();
  });

  it('refuses an audit directory whose existing ancestor resolves outside', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docket-outside-'));
    const cfg = { ...runtimeConfig(), configVersion: '3', audit: { dir: 'records/new' } };
    const c = project(cfg, (d) => symlinkSync(outside, join(d, 'records')));
    expect(await refusedAs(c)).toEqual(['config-path-outside', '/audit/dir']);
    expect(await refusedAs(project({ ...cfg, audit: { dir: 'not-yet/made' } }))).toBeUndefined();
  });

  it('checks expectedVersion against the pack document and names the member', async () => {
    const at = (v: string) =>
      project({ configVersion: '1', packs: { 'sanctions-screening': { path: PACK, expectedVersion: v } } });
    expect(await refusedAs(at('0.1.0'))).toBeUndefined();
    expect(await refusedAs(at('0.2.0'))).toEqual([
      'config-expected-version',
      '/packs/sanctions-screening/expectedVersion',
    ]);
  });
});

describe('the commands that read a project', () => {
  const graph = (c: string) => join(c, '..', 'onboarding.graph.json');

  it('graph validate reads a "3" project with audit (a validation records nothing) and graph evaluate refuses it, naming /audit', async () => {
    const c = project({ ...runtimeConfig(), configVersion: '3', audit: { dir: 'audit' } });
    expect((await cli(['graph', 'validate', '--config', c, '--graph', graph(c)])).code).toBe(0);
    const r = await cli(['graph', 'evaluate', '--config', c, '--graph', graph(c)]);
    const error = (JSON.parse(r.out) as { error: { code: string; message: string } }).error;
    expect([r.code, error.code]).toEqual([3, 'JPS-GRAPH-CONFIG']);
    expect(error.message).toMatch(/jpack\.json \/audit: .*ledger.*\(config-audit\)$/);
  });

  it('graph evaluate names the refused member in its JPS-GRAPH-CONFIG message', async () => {
    const cfg = runtimeConfig();
    const c = project({ ...cfg, packs: { ...(cfg.packs as object), x: { path: 'p', matrix: '../m' } } });
    const r = await cli(['graph', 'evaluate', '--config', c, '--graph', graph(c)]);
    const error = (JSON.parse(r.out) as { error: { code: string; message: string } }).error;
    expect(error.message).toBe(
      'jpack.json /packs/x/matrix: "../m" must be a relative path inside the project\'s directory (config-path-outside)',
    );
  });
});

describe('the runtime example project fixture', () => {
  // The SHA-256 of each file of ../shared/reference/runtime-example-project (the runtime's commit d622b8a).
  const REFERENCE: Record<string, string> = {
    'jpack.json': 'b7f6fd49c11ee3047385bdaaa116456b50811b29bf2232193190cb36f21ffaf6',
    'onboarding.graph.json': 'e1136c8ed73f4bc486d32e628aff6fab11380a31bea2af2f2e57916e88aa8b61',
    'onboarding.rows.json': '5ae40d1d3c3b062d1a9ac8c7cf8330b67d34807fe17feaed2e956468a8298745',
    'sanctions-screening-0.1.0.pack.json': '628cc0c9a9ae13c8eff4f6766a459259c6cd9e7ff9700573704e4e8f461bfa8b',
    'vendor-onboarding-0.1.0.pack.json': '0a095f25614be4a6f06ff4bf439f2d68a239d735d8e7c12d347543ebd5208ab8',
  };
  it('is byte for byte the runtime example project, and nothing else', () => {
    expect(readdirSync(RUNTIME).sort()).toEqual(Object.keys(REFERENCE).sort());
    for (const [f, digest] of Object.entries(REFERENCE))
      expect(
        createHash('sha256')
          .update(readFileSync(join(RUNTIME, f)))
          .digest('hex'),
        f,
      ).toBe(digest);
  });
});
