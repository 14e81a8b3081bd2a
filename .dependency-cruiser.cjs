/**
 * The layering Docket keeps (docs/architecture.md, ADR 0151), checked by `npm run lint:layers` in `npm test`.
 * core → adapters → functions / localstack / cli / infra; core is pure and imports nothing outside core.
 */
const OUTSIDE_CORE = '^(adapters|functions|cli|localstack|infra|stack|bench|test|conformance|bin)/';

/**
 * core/ledger's packages, lowest first (docs/adr/0390-core-ledger-split-into-packages.md): each may import only the
 * packages before it, and none imports the facade core/ledger/index.ts, so the packages form a stack, not a web.
 */
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

/** One rule per ledger package: what is above it, and the facade, are out of bounds. */
const ledgerPackageRules = LEDGER_PACKAGES.map((pkg, i) => {
  const above = LEDGER_PACKAGES.slice(i + 1);
  const below = LEDGER_PACKAGES.slice(0, i);
  return {
    name: `core-ledger-order-${pkg}`,
    comment:
      `core/ledger/${pkg} imports of core/ledger ${below.length === 0 ? 'no other package' : `only ${below.join(', ')}`}` +
      `${above.length === 0 ? '' : `; never ${above.join(', ')}`}; never the facade core/ledger/index.ts (ADR 0390).`,
    severity: 'error',
    from: { path: `^core/ledger/${pkg}/` },
    to: { path: `^core/ledger/(${above.length === 0 ? '' : `(${above.join('|')})/|`}index\\.ts$)` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      comment: 'core/ is the pure centre: it never imports adapters, functions, the CLI, the local stack or infra.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: OUTSIDE_CORE },
    },
    {
      name: 'core-no-cloud-sdk',
      comment: 'core/ never imports the AWS SDK or CDK: storage and queues come in through ports.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '(^|/)node_modules/(@aws-sdk|@smithy|aws-cdk-lib|constructs|@aws-lambda-powertools)/' },
    },
    {
      name: 'console-web-imports-only-core',
      comment:
        'The console page runs in a browser: it may import core/ (pure) and its front-end packages, never the server, ' +
        'the CLI, adapters or the AWS SDK (ADR 0181).',
      severity: 'error',
      from: { path: '^console/web/', pathNot: '^console/web/vite\\.config\\.ts$' },
      to: { pathNot: '^(console/web/|core/)|(^|/)node_modules/(lit|@lit|lit-html|lit-element|@lit-labs|vite)/' },
    },
    {
      name: 'verify-package-imports-only-core',
      comment:
        '@docket/verify runs in a browser with no AWS SDK: its entry re-exports core/ only (docs/adr/0442), never ' +
        'adapters, functions, the CLI or a cloud SDK.',
      severity: 'error',
      from: { path: '^packages/verify/' },
      to: { pathNot: '^(packages/verify/|core/)|(^|/)node_modules/(@noble|canonicalize)/' },
    },
    {
      name: 'packages-re-export-the-repository',
      comment:
        'A package entry re-exports the repository folders it is built from; no package imports another package ' +
        'folder or the tests (docs/adr/0440).',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^(packages/(?!$1/)|test/|bench/)' },
    },
    {
      name: 'console-api-imports-only-core',
      comment:
        "The console's API types (core/console-api) are shared by the server and the page: they import nothing but " +
        'core/, so the page can import them (ADR 0234).',
      severity: 'error',
      from: { path: '^core/console-api/' },
      to: { pathNot: '^core/' },
    },
    {
      name: 'console-api-types-only',
      comment:
        'core/console-api holds types only: every import it makes is `import type`, so it adds no code (ADR 0234).',
      severity: 'error',
      from: { path: '^core/console-api/' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'No runtime import cycles anywhere: each module can be loaded after the ones it imports.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'core-no-circular-types',
      comment: 'Inside core/ not even through types: each core module can be read after the ones it imports.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^core/', circular: true },
    },
    {
      name: 'core-ledger-below-pipeline',
      comment: 'The ledger is a format and its protocols: it never depends on the pipeline, admission or replay.',
      severity: 'error',
      from: { path: '^core/ledger/' },
      to: { path: '^core/(pipeline|admission|replay)/' },
    },
    ...ledgerPackageRules,
    {
      name: 'core-lower-layers',
      comment: 'carrier, pack and evaluate sit below graph, the ledger, admission, pipeline and replay.',
      severity: 'error',
      from: { path: '^core/(carrier|pack|evaluate)/' },
      to: { path: '^core/(graph|ledger|admission|pipeline|replay)/' },
    },
    {
      name: 'core-graph-imports',
      comment:
        'core/graph (judgment graphs, docs/graphs.md) evaluates packs through the evaluator and nothing else: it ' +
        'imports only core/carrier, core/pack and core/evaluate, each through its index, and core/result.ts.',
      severity: 'error',
      from: { path: '^core/graph/' },
      to: { path: '^core/', pathNot: '^(core/graph/|core/(carrier|pack|evaluate)/index\\.ts$|core/result\\.ts$)' },
    },
    {
      name: 'core-graph-through-index',
      comment: 'Elsewhere in core/, core/graph is used through its index.ts only.',
      severity: 'error',
      from: { path: '^core/', pathNot: '^core/graph/' },
      to: { path: '^core/graph/', pathNot: '^core/graph/index\\.ts$' },
    },
    {
      name: 'core-graph-closure-imports',
      comment:
        'core/graph-closure (the closed set a published graph pins, ADR 0340) reads graphs through core/graph and ' +
        'its record through core/carrier, each through its index, and core/result.ts.',
      severity: 'error',
      from: { path: '^core/graph-closure/' },
      to: {
        path: '^core/',
        pathNot: '^(core/graph-closure/|core/(graph|carrier)/index\\.ts$|core/result\\.ts$)',
      },
    },
    {
      name: 'core-graph-view-imports',
      comment:
        "core/graph-view (the console's drawing of a graph run, ADR 0341) reads a result object, not documents: " +
        'it imports only core/result.ts.',
      severity: 'error',
      from: { path: '^core/graph-view/' },
      to: { path: '^core/', pathNot: '^(core/graph-view/|core/result\\.ts$)' },
    },
    {
      name: 'core-admission-below-pipeline-and-replay',
      comment: 'Admission (request reading, pack loading) is shared by the pipeline and replay, and imports neither.',
      severity: 'error',
      from: { path: '^core/admission/' },
      to: { path: '^core/(pipeline|replay)/' },
    },
    {
      name: 'core-replay-not-pipeline',
      comment: 'Replay re-runs admission and evaluation from their one home; it never reaches into the pipeline.',
      severity: 'error',
      from: { path: '^core/replay/' },
      to: { path: '^core/pipeline/' },
    },
    {
      name: 'core-carrier-imports-nothing',
      comment: 'The carrier is the bottom of core: it imports nothing of core but core/result.ts.',
      severity: 'error',
      from: { path: '^core/carrier/' },
      to: { path: '^core/', pathNot: '^core/(carrier/|result\\.ts$)' },
    },
    {
      name: 'core-pack-below-evaluate',
      comment: 'Pack conformance sits below the evaluator: the evaluator compiles validated packs, never the reverse.',
      severity: 'error',
      from: { path: '^core/pack/' },
      to: { path: '^core/evaluate/' },
    },
    {
      name: 'adapters-below-the-outer-layers',
      comment:
        "adapters/ implements core's ports over the AWS SDK; the functions, the CLI, the local stack, infra and the " +
        'stack settings are built on it, never the reverse (docs/architecture.md, ADR 0336).',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(functions|cli|localstack|infra|stack)/' },
    },
    {
      name: 'stack-below-its-users',
      comment:
        'stack/ reaches one stack from outside it for the CLI and the benches; it imports none of them (ADR 0336).',
      severity: 'error',
      from: { path: '^stack/' },
      to: { path: '^(functions|cli|localstack|infra)/' },
    },
    {
      name: 'functions-not-cli-localstack-infra',
      comment:
        'A Lambda handler and its wiring run in AWS: they never import the CLI, the local stack, infra or stack/ ' +
        '(ADR 0336).',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(cli|localstack|infra|stack)/' },
    },
    {
      name: 'localstack-not-cli-or-infra',
      comment:
        'The local stack hosts the functions by path and reads the template through infra/synth.ts only; it never ' +
        'imports the CLI or the rest of infra (ADR 0336).',
      severity: 'error',
      from: { path: '^localstack/' },
      to: { path: '^(cli|infra)/', pathNot: '^infra/synth\\.ts$' },
    },
    {
      name: 'cli-not-infra',
      comment:
        "The CLI reads a stage's configuration and names (infra/config.ts, infra/names.ts; ADR 0233) and reaches " +
        'the CDK app only through the local stack; it never imports the constructs or the stack (ADR 0336).',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^infra/', pathNot: '^infra/(config|names)\\.ts$' },
    },
    {
      name: 'infra-imports-only-core',
      comment:
        'The CDK app bundles the functions by path; it imports core defaults, never adapters, functions, the CLI, ' +
        'the local stack or stack/ (ADR 0336).',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^(adapters|functions|cli|localstack|stack)/' },
    },
    {
      name: 'console-offline-imports-only-core',
      comment:
        'The offline page is one self-contained HTML file: it imports core/ (pure) and its own files only, never the ' +
        'server, the CLI, adapters or the AWS SDK (ADR 0336).',
      severity: 'error',
      from: { path: '^console/offline/', pathNot: '^console/offline/vite\\.config\\.ts$' },
      to: { pathNot: '^(console/offline/|core/)' },
    },
    {
      name: 'conformance-imports-only-core',
      comment:
        "The conformance corpus and its runner judge core's rules with core alone, so `docket conformance` and the " +
        'corpus tests run without a stack (ADR 0336).',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^(adapters|functions|cli|localstack|infra|stack|console|bench|test)/' },
    },
    {
      name: 'product-not-bench-or-test',
      comment:
        'bench/ and test/ measure and test the product; no product code imports them (they may import each other ' +
        'and everything else; ADR 0336).',
      severity: 'error',
      from: { path: '^(core|adapters|functions|cli|localstack|infra|stack|console|conformance)/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'outer-no-circular-types',
      comment:
        'Outside core/ too, not even through types: each module can be read after the ones it imports (ADR 0336).',
      severity: 'error',
      from: { path: '^(adapters|functions|cli|localstack|infra|stack|console|conformance|bench)/' },
      to: { circular: true },
    },
    {
      name: 'core-through-public-index',
      comment:
        'Outside core/, a core package is used through its index.ts (ADR 0151, ADR 0211); a package of core/ledger ' +
        'through its own index.ts or the facade core/ledger/index.ts (ADR 0390).',
      severity: 'error',
      from: { path: '^(adapters|functions|cli|localstack|infra|stack)/' },
      to: { path: '^core/[^/]+/.+', pathNot: '^core/([^/]+|ledger/[^/]+)/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not followed but stays in the graph as leaves: excluded, an import of the AWS SDK from core/
    // or of a server package from the page would vanish with it and the rules naming packages could never fire.
    exclude: { path: '^(dist|cdk.out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
