/**
 * The layering Docket keeps (docs/architecture.md, ADR 0151), checked by `npm run lint:layers` in `npm test`.
 * core → adapters → functions / localstack / cli / infra; core is pure and imports nothing outside core.
 */
const OUTSIDE_CORE = '^(adapters|functions|cli|localstack|infra|stack|bench|test|conformance|bin)/';

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
      to: { path: 'node_modules/(@aws-sdk|@smithy|aws-cdk-lib|constructs|@aws-lambda-powertools)/' },
    },
    {
      name: 'console-web-imports-only-core',
      comment:
        'The console page runs in a browser: it may import core/ (pure) and its front-end packages, never the server, ' +
        'the CLI, adapters or the AWS SDK (ADR 0181).',
      severity: 'error',
      from: { path: '^console/web/', pathNot: '^console/web/vite\\.config\\.ts$' },
      to: { pathNot: '^(console/web/|core/|node_modules/(lit|@lit|lit-html|lit-element|@lit-labs|vite)/)' },
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
      name: 'core-through-public-index',
      comment: 'Outside core/, a core package is used through its index.ts (ADR 0151, ADR 0211).',
      severity: 'error',
      from: { path: '^(adapters|functions|cli|localstack|infra|stack)/' },
      to: { path: '^core/[^/]+/.+', pathNot: '^core/[^/]+/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|cdk.out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
