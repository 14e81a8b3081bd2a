/**
 * Offline synthesis for tests and for the local stack (which provisions its queues and tables from the template):
 * no AWS account, no network, no Docker. Bundling is skipped unless asked for (context aws:cdk:bundling-stacks).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { resolveConfig, type DocketConfig } from './config.js';
import { DocketStack } from './docket-stack.js';
import { repoRoot } from './paths.js';

export interface SynthOptions {
  /** Bundle the handlers with esbuild (slow, needs functions/*.ts); default false. */
  readonly bundle?: boolean;
  /** Run CDK's built-in CloudFormation template validation (≈ 8 s here); default false. `cdk synth` always runs it. */
  readonly validate?: boolean;
}

/** Stack name of a stage. */
export function stackName(stage: string): string {
  return `Docket-${stage}`;
}

/** Build the app and stack without synthesizing (tests use it for assertions and cdk-nag). */
export function buildDocketApp(
  config: Partial<DocketConfig> = {},
  options: SynthOptions = {},
): { app: App; stack: DocketStack; config: DocketConfig } {
  const resolved = resolveConfig(config);
  const app = new App({
    context: {
      // The feature flags of cdk.json, so tests synthesize exactly what `cdk deploy` deploys.
      ...cdkJsonFeatureFlags(),
      'aws:cdk:bundling-stacks': options.bundle === true ? ['**'] : [],
    },
    analyticsReporting: false,
    builtinCloudFormationValidation: options.validate === true,
  });
  const stack = new DocketStack(app, stackName(resolved.stage), { config: resolved });
  return { app, stack, config: resolved };
}

/** The CloudFormation template (JSON) of the Docket stack for this configuration. */
export function synthesizeTemplate(
  config: Partial<DocketConfig> = {},
  options: SynthOptions = {},
): Record<string, unknown> {
  const { app, stack } = buildDocketApp(config, options);
  const assembly = app.synth();
  return assembly.getStackByName(stack.stackName).template as Record<string, unknown>;
}

/** The `@aws-cdk/...` feature flags recorded in cdk.json (per-stage `docket` context is passed as config instead). */
export function cdkJsonFeatureFlags(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot(), 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return Object.fromEntries(Object.entries(cdkJson.context ?? {}).filter(([k]) => k.startsWith('@aws-cdk/')));
}
