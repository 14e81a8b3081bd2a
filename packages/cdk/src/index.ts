/**
 * @docket/cdk: the whole Docket pipeline as one construct inside a team's own CDK stack (docs/deploy.md "Docket inside
 * your own CDK app", docs/adr/0445-docket-pipeline-construct.md). Everything re-exported here lives in infra/; this
 * file only names the public surface (docs/adr/0440-packages-built-from-the-repository-folders.md). The Lambda code
 * ships prebuilt inside the package (docs/adr/0447-cdk-package-ships-prebuilt-handlers.md).
 */
export { DocketPipeline, type DocketPipelineProps } from '../../../infra/docket-pipeline.js';
export { DocketPipelineError, type DocketPipelineErrorCode } from '../../../infra/docket-pipeline-error.js';
export {
  DocketConfigError,
  defaultConfig,
  resolveConfig,
  type AlarmThresholds,
  type DocketConfig,
  type RouteConfig,
  type RouteKind,
} from '../../../infra/config.js';
