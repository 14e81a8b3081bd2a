/**
 * The CDK feature flags Docket's resources were reviewed under (cdk-nag clean, least privilege), the same as
 * cdk.json's `@aws-cdk/…` context (test/infra/pipeline.test.ts keeps the two equal). DocketPipeline sets them on its
 * own node, so inside a team's app with other flags (or none) its resources synthesize as in this repository; flags
 * read at the stack or app level stay the team's choice (docs/adr/0445-docket-pipeline-construct.md).
 */
export const DOCKET_FEATURE_FLAGS: Readonly<Record<string, unknown>> = {
  '@aws-cdk/core:validateAgainstDefaultRules': true,
  '@aws-cdk/aws-lambda:recognizeLayerVersion': true,
  '@aws-cdk/core:checkSecretUsage': true,
  '@aws-cdk/core:target-partitions': ['aws', 'aws-cn'],
  '@aws-cdk/aws-iam:minimizePolicies': true,
  '@aws-cdk/core:validateSnapshotRemovalPolicy': true,
  '@aws-cdk/aws-s3:createDefaultLoggingPolicy': true,
  '@aws-cdk/aws-sns-subscriptions:restrictSqsDescryption': true,
  '@aws-cdk/core:enablePartitionLiterals': true,
  '@aws-cdk/aws-iam:standardizedServicePrincipals': true,
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  '@aws-cdk/aws-lambda-nodejs:useLatestRuntimeVersion': true,
  '@aws-cdk/aws-kms:aliasNameRef': true,
  '@aws-cdk/aws-kms:applyImportedAliasPermissionsToPrincipal': true,
};
