/**
 * The CDK app (cdk.json: `node dist/infra/app.js`; `npm run build` compiles it). Stage and per-stage overrides come
 * from context (`-c stage=prod`, `docket.<stage>` in cdk.json); account and region from the CLI's environment.
 * cdk-nag's AwsSolutions pack runs on every synth; an unacknowledged error fails it.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { configFromContext } from './config.js';
import { DocketStack } from './docket-stack.js';
import { stackName } from './synth.js';

// `DOCKET_SYNTH_BUNDLING=off` skips esbuild (the CLI refuses user context keys prefixed with "aws:").
// Set after construction: context from the CLI (which asks to bundle every stack) would override constructor props.
const app = new App();
if (process.env['DOCKET_SYNTH_BUNDLING'] === 'off') app.node.setContext('aws:cdk:bundling-stacks', []);
const config = configFromContext(app.node);
const account = process.env['CDK_DEFAULT_ACCOUNT'];
const region = process.env['CDK_DEFAULT_REGION'];
new DocketStack(app, stackName(config.stage), {
  config,
  ...(account !== undefined && region !== undefined ? { env: { account, region } } : {}),
  description: `Docket (${config.stage}): Judgment Pack evaluation pipeline with a verifiable audit ledger`,
  terminationProtection: config.stage !== 'dev' && config.stage !== 'local',
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
