/**
 * One default work budget (ADR 0034): the evaluator's DEFAULT_WORK_BUDGET is what the stack deploys, what the
 * evaluate function falls back to when its environment names none, and what docs/pipeline.md says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WORK_BUDGET, MAX_WORK_BUDGET } from '../../core/evaluate/index.js';
import { pipelineConfigFromEnv } from '../../functions/lib/evaluate-runtime.js';
import { defaultConfig } from '../../infra/config.js';

const ENV = { LOG_IDS: '["log-0"]', UNROUTED_QUEUE_URL: 'http://127.0.0.1:1/q/unrouted' };

describe('the default work budget', () => {
  it('is the evaluator default when the function environment names none', () => {
    const config = pipelineConfigFromEnv({ ...ENV }, 'sha256:x');
    expect(config.defaultWorkBudget).toBe(DEFAULT_WORK_BUDGET);
    expect(config.maxWorkBudget).toBe(MAX_WORK_BUDGET);
  });

  it('is the one the environment names when it names one', () => {
    expect(pipelineConfigFromEnv({ ...ENV, DEFAULT_WORK_BUDGET: '5000' }, 'sha256:x').defaultWorkBudget).toBe(5000);
  });

  it('is the one every stage deploys unless configured otherwise', () => {
    for (const stage of ['local', 'dev', 'prod'])
      expect(defaultConfig(stage).budgets).toEqual({
        defaultWorkUnits: DEFAULT_WORK_BUDGET,
        maxWorkUnits: MAX_WORK_BUDGET,
      });
  });

  it('is the figure docs/pipeline.md gives for an absent workBudget', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'pipeline.md'), 'utf8');
    const row = doc.split('\n').find((l) => l.startsWith('| `workBudget` |')) ?? '';
    expect(row).toContain(`absent = the deployment's \`DEFAULT_WORK_BUDGET\``);
    expect(row).toContain(DEFAULT_WORK_BUDGET.toLocaleString('en-US'));
    expect(row).not.toMatch(/\b100,000\b(?!,)/);
  });
});
