import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LANES } from './test/lanes/lanes.js';

// One vitest project per test lane (test/lanes/lanes.ts, docs/adr/0320-test-lanes.md): `npm run test:unit` and its
// siblings run one lane, `vitest run` every lane. The template service synthesizes the CDK template once per
// configuration per run for every lane that starts a stack (test/lanes/template-service.ts).
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
    projects: LANES.map((lane) => ({
      extends: true,
      test: { name: lane.name, include: [...lane.include], exclude: [...lane.exclude] },
    })),
  },
});
