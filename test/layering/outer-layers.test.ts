/**
 * Every rule of .dependency-cruiser.cjs fires on a planted import (ADR 0151, ADR 0336): one fixture file per rule
 * that layering.test.ts does not already prove, each importing what its layer must not import, and a tree that
 * keeps every layer's "may import" column passes clean. A rule added to the config without a planted import here
 * (or in layering.test.ts) fails the last test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, ROOT, TSCONFIG, writeTree, type Violation } from './cruise.js';

const LAYERS = [
  'core',
  'adapters',
  'functions',
  'cli',
  'localstack',
  'infra',
  'stack',
  'console',
  'conformance',
  'bench',
  'test',
  'packages',
];

/** core/ledger's packages, lowest first, as .dependency-cruiser.cjs orders them (ADR 0390). */
const LEDGER_PACKAGES = [
  'primitives',
  'store',
  'notes',
  'entries',
  'trust-policy',
  'checkpoints',
  'export',
  'witness',
  'verify',
  'receipts',
  'write',
];
const constName = (pkg: string): string => pkg.replace('-', '_');

/** Each ledger package's index imports the one below it, as the order allows; the facade re-exports them all. */
const LEDGER_TREE: Record<string, string> = Object.fromEntries([
  ...LEDGER_PACKAGES.map((pkg, i) => {
    const below = LEDGER_PACKAGES[i - 1];
    const text =
      below === undefined
        ? `export const ${constName(pkg)} = 1;\n`
        : `import { ${constName(below)} } from '../${below}/index.js';\nexport const ${constName(pkg)} = ${constName(below)};\n`;
    return [`core/ledger/${pkg}/index.ts`, text];
  }),
  ['core/ledger/entries/entry.ts', 'export const entry = 1;\n'],
]);

/**
 * rule → a file in each ledger package importing the package just above it (the top one, the facade): the nearest
 * import its rule forbids.
 */
const PLANTED_LEDGER: Record<string, readonly [string, string]> = Object.fromEntries(
  LEDGER_PACKAGES.map((pkg, i) => {
    const above = LEDGER_PACKAGES[i + 1];
    const target = above === undefined ? '../index.js' : `../${above}/index.js`;
    return [
      `core-ledger-order-${pkg}`,
      [`core/ledger/${pkg}/up.ts`, `import * as up from '${target}';\nexport const u = up;\n`],
    ];
  }),
);

/** Import targets every fixture may name: each exists, so every import resolves. */
const TARGETS: Record<string, string> = {
  ...LEDGER_TREE,
  'tsconfig.json': TSCONFIG,
  'node_modules/@aws-sdk/client-sqs/package.json': '{"name":"@aws-sdk/client-sqs","main":"index.js"}',
  'node_modules/@aws-sdk/client-sqs/index.js': 'export const SQSClient = 1;\n',
  'node_modules/@aws-sdk/client-sqs/index.d.ts': 'export declare const SQSClient: number;\n',
  'core/result.ts': 'export const ok = 1;\n',
  'core/carrier/index.ts': "import { ok } from '../result.js';\nexport const carrier = ok;\n",
  'core/pack/index.ts': "import { carrier } from '../carrier/index.js';\nexport const pack = carrier;\n",
  'core/evaluate/index.ts': "import { pack } from '../pack/index.js';\nexport const evaluate = pack;\n",
  'core/ledger/index.ts':
    "import { evaluate } from '../evaluate/index.js';\nexport const ledger = evaluate;\n" +
    LEDGER_PACKAGES.map((pkg) => `export * from './${pkg}/index.js';\n`).join(''),
  // Outside core, a ledger package may be used through its own index (ADR 0390).
  'functions/ledger-entries.ts':
    "import { entries } from '../core/ledger/entries/index.js';\nexport const e = entries;\n",
  'core/pipeline/index.ts': "import { ledger } from '../ledger/index.js';\nexport const pipeline = ledger;\n",
  'core/graph/index.ts': "import { evaluate } from '../evaluate/index.js';\nexport const graph = evaluate;\n",
  'core/graph/run.ts': "import { evaluate } from '../evaluate/index.js';\nexport const run = evaluate;\n",
  'adapters/sqs.ts':
    "import { ledger } from '../core/ledger/index.js';\nexport const sqs = ledger;\nexport type S = number;\n",
  'stack/clients.ts': "import { sqs } from '../adapters/sqs.js';\nexport const clients = sqs;\n",
  'functions/evaluate.ts': "import { sqs } from '../adapters/sqs.js';\nexport const handler = sqs;\n",
  'localstack/daemon.ts': "import { sqs } from '../adapters/sqs.js';\nexport const daemon = sqs;\n",
  'localstack/launcher.ts': "export const launch = async () => import('../infra/synth.js');\n",
  'infra/synth.ts': "import { evaluate } from '../core/evaluate/index.js';\nexport const synth = evaluate;\n",
  'infra/config.ts': "import { pack } from '../core/pack/index.js';\nexport const config = pack;\n",
  'infra/names.ts': 'export const names = 1;\n',
  'infra/docket-stack.ts': "import { config } from './config.js';\nexport const stack = config;\n",
  'conformance/runner.ts': "import { evaluate } from '../core/evaluate/index.js';\nexport const runner = evaluate;\n",
  'cli/show.ts':
    "import { clients } from '../stack/clients.js';\nimport { config } from '../infra/config.js';\n" +
    "import { names } from '../infra/names.js';\nimport { runner } from '../conformance/runner.js';\n" +
    "import { daemon } from '../localstack/daemon.js';\nexport const show = [clients, config, names, runner, daemon];\n",
  'console/offline/main.ts': "import { ledger } from '../../core/ledger/index.js';\nexport const main = ledger;\n",
  'console/web/src/app.ts': "import { ledger } from '../../../core/ledger/index.js';\nexport const app = ledger;\n",
  'bench/support/prng.ts': 'export const prng = 1;\n',
  'bench/show.bench.ts':
    "import { show } from '../cli/show.js';\nimport { helper } from '../test/helper.js';\nexport const b = [show, helper];\n",
  'test/helper.ts': "import { prng } from '../bench/support/prng.js';\nexport const helper = prng;\n",
  // A package entry re-exports the repository folders it is built from (ADR 0440).
  'packages/client/src/index.ts':
    "import { sqs } from '../../../adapters/sqs.js';\nimport { ledger } from '../../../core/ledger/index.js';\n" +
    'export const client = [sqs, ledger];\n',
};

/** rule → [the file that breaks it, its text]. */
const PLANTED: Record<string, readonly [string, string]> = {
  'core-graph-closure-imports': [
    'core/graph-closure/closure.ts',
    "import { ledger } from '../ledger/index.js';\nexport const c = ledger;\n",
  ],
  'core-graph-view-imports': [
    'core/graph-view/layout.ts',
    "import { graph } from '../graph/index.js';\nexport const l = graph;\n",
  ],
  'core-graph-through-index': [
    'core/pipeline/graph-inside.ts',
    "import { run } from '../graph/run.js';\nexport const g = run;\n",
  ],
  'core-no-cloud-sdk': [
    'core/pipeline/sdk.ts',
    "import { SQSClient } from '@aws-sdk/client-sqs';\nexport const c = SQSClient;\n",
  ],
  'core-no-circular-types': ['core/evaluate/t1.ts', "import type { B } from './t2.js';\nexport type A = B | 1;\n"],
  'core-lower-layers': [
    'core/evaluate/lower.ts',
    "import { ledger } from '../ledger/index.js';\nexport const l = ledger;\n",
  ],
  'core-admission-below-pipeline-and-replay': [
    'core/admission/a.ts',
    "import { pipeline } from '../pipeline/index.js';\nexport const a = pipeline;\n",
  ],
  'core-carrier-imports-nothing': [
    'core/carrier/c.ts',
    "import { pack } from '../pack/index.js';\nexport const c = pack;\n",
  ],
  'core-pack-below-evaluate': [
    'core/pack/p.ts',
    "import { evaluate } from '../evaluate/index.js';\nexport const p = evaluate;\n",
  ],
  'console-web-imports-only-core': [
    'console/web/src/bad.ts',
    "import { sqs } from '../../../adapters/sqs.js';\nexport const bad = sqs;\n",
  ],
  'console-api-imports-only-core': [
    'core/console-api/types.ts',
    "import type { S } from '../../adapters/sqs.js';\nexport type T = S;\n",
  ],
  'console-api-types-only': [
    'core/console-api/values.ts',
    "import { ledger } from '../ledger/index.js';\nexport const v = ledger;\n",
  ],
  'adapters-below-the-outer-layers': [
    'adapters/bad.ts',
    "import { show } from '../cli/show.js';\nexport const bad = show;\n",
  ],
  'stack-below-its-users': [
    'stack/bad.ts',
    "import { handler } from '../functions/evaluate.js';\nexport const bad = handler;\n",
  ],
  'functions-not-cli-localstack-infra': [
    'functions/bad.ts',
    "import { daemon } from '../localstack/daemon.js';\nexport const bad = daemon;\n",
  ],
  'localstack-not-cli-or-infra': [
    'localstack/bad.ts',
    "import { stack } from '../infra/docket-stack.js';\nexport const bad = stack;\n",
  ],
  'cli-not-infra': [
    'cli/deploy.ts',
    "import { stack } from '../infra/docket-stack.js';\nexport const deploy = stack;\n",
  ],
  'infra-imports-only-core': ['infra/bad.ts', "import { sqs } from '../adapters/sqs.js';\nexport const bad = sqs;\n"],
  'console-offline-imports-only-core': [
    'console/offline/bad.ts',
    "import { clients } from '../../stack/clients.js';\nexport const bad = clients;\n",
  ],
  'conformance-imports-only-core': [
    'conformance/bad.ts',
    "import { clients } from '../stack/clients.js';\nexport const bad = clients;\n",
  ],
  'product-not-bench-or-test': [
    'cli/uses-bench.ts',
    "import { prng } from '../bench/support/prng.js';\nexport const u = prng;\n",
  ],
  'core-through-public-index': [
    'stack/deep-ledger.ts',
    "import { entry } from '../core/ledger/entries/entry.js';\nexport const d = entry;\n",
  ],
  'verify-package-imports-only-core': [
    'packages/verify/src/index.ts',
    "import { sqs } from '../../../adapters/sqs.js';\nexport const v = sqs;\n",
  ],
  'packages-re-export-the-repository': [
    'packages/consumer/src/index.ts',
    "import { helper } from '../../../test/helper.js';\nexport const c = helper;\n",
  ],
  ...PLANTED_LEDGER,
  'outer-no-circular-types': [
    'cli/console/overview.ts',
    "import type { W } from './witness-view.js';\nexport type O = { w?: W };\n",
  ],
};
/** The other half of the two cycles above. */
const CYCLE_PARTNERS: Record<string, string> = {
  'core/evaluate/t2.ts': "import type { A } from './t1.js';\nexport type B = { a?: A };\n",
  'cli/console/witness-view.ts': "import type { O } from './overview.js';\nexport type W = { o?: O };\n",
};
/** Proved by layering.test.ts's own planted tree. */
const PROVED_IN_LAYERING_TEST = [
  'core-graph-imports',
  'core-imports-only-core',
  'no-circular',
  'core-ledger-below-pipeline',
  'core-replay-not-pipeline',
];

describe('every layering rule fires on a planted import', () => {
  let bad: string;
  let good: string;
  let violations: Violation[];

  beforeAll(() => {
    bad = mkdtempSync(join(tmpdir(), 'docket-outer-bad-'));
    writeTree(bad, {
      ...TARGETS,
      ...CYCLE_PARTNERS,
      ...Object.fromEntries(Object.values(PLANTED).map(([file, text]) => [file, text])),
    });
    violations = cruise(bad, LAYERS);
    good = mkdtempSync(join(tmpdir(), 'docket-outer-good-'));
    writeTree(good, TARGETS);
  });
  afterAll(() => {
    rmSync(bad, { recursive: true, force: true });
    rmSync(good, { recursive: true, force: true });
  });

  it.each(Object.entries(PLANTED).map(([rule, [file]]) => [rule, file]))('%s reports %s', (rule, file) => {
    expect(violations.filter((v) => v.rule.name === rule).map((v) => v.from)).toContain(file);
  });

  it("passes a tree where each layer imports only what its row's 'may import' column allows", () => {
    expect(cruise(good, LAYERS)).toEqual([]);
  });

  it('has a planted import for every rule in .dependency-cruiser.cjs', () => {
    const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string }[];
    };
    const proved = new Set([...Object.keys(PLANTED), ...PROVED_IN_LAYERING_TEST]);
    expect(config.forbidden.map((r) => r.name).filter((n) => !proved.has(n))).toEqual([]);
  });
});
