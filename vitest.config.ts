import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LANES, UNIT_ISOLATED, type Lane } from './test/lanes/lanes.js';

// One vitest project per test lane (test/lanes/lanes.ts, docs/adr/0320-test-lanes.md): `npm run test:unit` and its
// siblings run one lane, `vitest run` every lane. The template service synthesizes the CDK template once per
// configuration per run for every lane that starts a stack (test/lanes/template-service.ts).
// The unit lane's files share each worker's module graph (docs/adr/0495-unit-lane-shares-module-graphs.md): a fresh
// worker per file cost a process start and a re-import of the file's modules, about a third of the lane's CPU. The
// files of UNIT_ISOLATED change state the next file would see, so they keep a worker each.
function projectsOf(lane: Lane): Array<{ name: string; include: string[]; exclude: string[]; isolate?: boolean }> {
  const own = { include: [...lane.include], exclude: [...lane.exclude] };
  if (lane.name !== 'unit') return [{ name: lane.name, ...own }];
  return [
    { name: 'unit', ...own, exclude: [...own.exclude, ...UNIT_ISOLATED], isolate: false },
    { name: 'unit-isolated', include: [...UNIT_ISOLATED], exclude: own.exclude },
  ];
}

export default defineConfig({
  test: {
    setupFiles: ['test/setup-node-crypto.ts'],
    globalSetup: ['test/lanes/template-service.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core (ADR 0392): vitest's own default in a run is one fewer, a single worker on the 2-core
    // machine, which left a core idle for most of `npm test`.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: LANES.flatMap(projectsOf).map((test) => ({ extends: true, test })),
  },
});
