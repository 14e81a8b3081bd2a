/** The pipeline configuration the in-memory pipeline tests share: budgets, a fixed build and the examples' routes. */
import type { PipelineConfig, RouteQueueConfig } from '../../core/pipeline/index.js';

export function testPipelineConfig(logIds: readonly string[], overrides: Partial<PipelineConfig> = {}): PipelineConfig {
  return {
    logIds: [...logIds],
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'b'.repeat(64) },
    ...overrides,
  };
}

/** The route queues of the examples, as the deliver function is configured with them. */
export const TEST_ROUTES: RouteQueueConfig = {
  routeQueues: {
    'queue:Vendor Risk': 'q-vendor',
    'queue:Intake Desk': 'q-intake',
    'human-role:Oversight': 'q-oversight',
    'human-role:Data Steward': 'q-steward',
  },
  unroutedQueue: 'q-unrouted',
};
