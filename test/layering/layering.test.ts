/**
 * The layering and purity checks fail when violated (ADR 0151): the real dependency-cruiser config runs over a
 * small fixture tree written to a temporary directory, and the real ESLint config is asked which rules apply
 * to core/ and what they report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_PURITY_RULES } from '../../eslint.config.js';
import { cruise, ROOT, TSCONFIG, writeTree, type Violation } from './cruise.js';

describe('the layering check', () => {
  let bad: string;
  let good: string;
  let violations: Violation[];

  beforeAll(() => {
    bad = mkdtempSync(join(tmpdir(), 'docket-layers-bad-'));
    writeTree(bad, {
      'tsconfig.json': TSCONFIG,
      'adapters/sqs.ts': 'export const send = 1;\n',
      'core/evaluate/index.ts': "import { send } from '../../adapters/sqs.js';\nexport const evaluate = send;\n",
      'core/pack/a.ts': "import { b } from './b.js';\nexport const a = (): number => b();\n",
      'core/pack/b.ts': "import { a } from './a.js';\nexport const b = (): number => a();\n",
      'core/pipeline/index.ts': 'export const pipeline = 1;\n',
      'core/ledger/index.ts': "import { pipeline } from '../pipeline/index.js';\nexport const ledger = pipeline;\n",
      'core/ledger/store/store.ts': 'export const store = 1;\n',
      'core/replay/index.ts': "import { pipeline } from '../pipeline/index.js';\nexport const replay = pipeline;\n",
      'cli/show.ts': "import { store } from '../core/ledger/store/store.js';\nexport const show = store;\n",
      'core/evaluate/compile.ts': 'export const compile = 1;\n',
      'core/graph/index.ts': "import { ledger } from '../ledger/index.js';\nexport const graph = ledger;\n",
      'core/graph/run.ts': "import { compile } from '../evaluate/compile.js';\nexport const run = compile;\n",
    });
    violations = cruise(bad, ['core', 'adapters', 'cli']);

    good = mkdtempSync(join(tmpdir(), 'docket-layers-good-'));
    writeTree(good, {
      'tsconfig.json': TSCONFIG,
      'core/ledger/store/store.ts': 'export const store = 1;\n',
      'core/ledger/store/index.ts': "export { store } from './store.js';\n",
      'core/ledger/index.ts': "export * from './store/index.js';\n",
      'core/pipeline/index.ts': "import { store } from '../ledger/index.js';\nexport const pipeline = store;\n",
      'adapters/sqs.ts': "import { pipeline } from '../core/pipeline/index.js';\nexport const send = pipeline;\n",
      'cli/show.ts': "import { store } from '../core/ledger/index.js';\nexport const show = store;\n",
      'core/result.ts': 'export const ok = 1;\n',
      'core/evaluate/index.ts': 'export const evaluate = 1;\n',
      'core/graph/run.ts':
        "import { evaluate } from '../evaluate/index.js';\nimport { ok } from '../result.js';\nexport const run = evaluate + ok;\n",
      'core/graph/index.ts': "export { run } from './run.js';\n",
    });
  });
  afterAll(() => {
    rmSync(bad, { recursive: true, force: true });
    rmSync(good, { recursive: true, force: true });
  });

  const has = (rule: string, from: string): boolean => violations.some((v) => v.rule.name === rule && v.from === from);

  it('fails when a core file imports from adapters/', () => {
    expect(has('core-imports-only-core', 'core/evaluate/index.ts')).toBe(true);
  });
  it('fails on an import cycle', () => {
    expect(violations.some((v) => v.rule.name === 'no-circular' && v.from.startsWith('core/pack/'))).toBe(true);
  });
  it('fails when the ledger imports the pipeline', () => {
    expect(has('core-ledger-below-pipeline', 'core/ledger/index.ts')).toBe(true);
  });
  it('fails when replay reaches into the pipeline', () => {
    expect(has('core-replay-not-pipeline', 'core/replay/index.ts')).toBe(true);
  });
  it('fails when the CLI reaches past a core package index', () => {
    expect(has('core-through-public-index', 'cli/show.ts')).toBe(true);
  });
  it('fails when core/graph imports the ledger, or the evaluator past its index', () => {
    expect(has('core-graph-imports', 'core/graph/index.ts')).toBe(true);
    expect(has('core-graph-imports', 'core/graph/run.ts')).toBe(true);
  });
  it('passes a tree that keeps the layers', () => {
    expect(cruise(good, ['core', 'adapters', 'cli'])).toEqual([]);
  });
});

describe('the core purity rules', () => {
  const linter = new Linter({ configType: 'flat' });
  const lint = (code: string): string[] =>
    linter
      .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: CORE_PURITY_RULES }], {
        filename: 'core/probe.ts',
      })
      .map((m) => m.ruleId ?? 'parse-error');

  it.each([
    ['process.env', 'export const region = process.env.AWS_REGION;'],
    ['Date.now', 'export const t = Date.now();'],
    ['new Date()', 'export const t = new Date();'],
    ['Math.random', 'export const r = Math.random();'],
    ['crypto.randomUUID', "import crypto from 'node:crypto';\nexport const id = crypto.randomUUID();"],
    ['randomBytes imported', "import { randomBytes } from 'node:crypto';\nexport const b = randomBytes(8);"],
  ])('reports %s inside core/', (_name, code) => {
    expect(lint(code).length).toBeGreaterThan(0);
    expect(lint(code)).not.toContain('parse-error');
  });

  it('allows hashing with node:crypto inside core/', () => {
    expect(lint("import { createHash } from 'node:crypto';\nexport const h = createHash('sha256');")).toEqual([]);
  });

  it('applies to core/ and not to adapters/ in the project config', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    type Rules = { readonly rules?: Record<string, unknown> };
    const core = (await eslint.calculateConfigForFile(join(ROOT, 'core/result.ts'))) as Rules;
    const adapters = (await eslint.calculateConfigForFile(join(ROOT, 'adapters/sqs.ts'))) as Rules;
    expect(core.rules?.['no-restricted-properties']).toBeDefined();
    expect(adapters.rules?.['no-restricted-properties']).toBeUndefined();
  });
});
