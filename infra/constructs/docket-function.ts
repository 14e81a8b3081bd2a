/**
 * One Docket Lambda function: NodejsFunction bundled by esbuild (no Docker), nodejs24.x on arm64, ESM output, its own
 * role (no managed policies) and its own log group with the configured retention. Run from an installed @docket/cdk,
 * the same bundle comes prebuilt inside the package (infra/prebuilt-handlers.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { repoRoot } from '../paths.js';
import { prebuiltHandlerDirectory } from '../prebuilt-handlers.js';

export interface DocketFunctionProps {
  readonly functionName: string;
  /** Handler source relative to the repository root, exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memoryMb: number;
  readonly logRetentionDays: number;
  readonly environment: Record<string, string>;
  /** Bundle the AWS SDK instead of using the runtime's (DocketConfig.bundleAwsSdk). */
  readonly bundleAwsSdk?: boolean;
  /** Lambda refuses code not signed by this configuration's profile (infra/constructs/code-signing.ts). */
  readonly codeSigningConfig?: lambda.ICodeSigningConfig;
}

/** ESM bundles still meet CommonJS dependencies that call require(); give them one. */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __docketCreateRequire } from 'module'; const require = __docketCreateRequire(import.meta.url);";

/**
 * Lambda's own log lines kept: WARN, so neither the start nor the report line of each invocation is sent to
 * CloudWatch Logs (docs/adr/0502-log-volume-measured-and-cut.md, "Lambda's own lines at WARN").
 */
export const SYSTEM_LOG_LEVEL = lambda.SystemLogLevel.WARN;

/** What every Docket function has, whichever way its code comes. */
type CommonFunctionProps = Omit<lambda.FunctionProps, 'code' | 'handler'>;

export class DocketFunction extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: DocketFunctionProps) {
    super(scope, id);
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.functionName}: least-privilege execution role`,
    });
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${props.functionName}`,
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Written explicitly instead of AWSLambdaBasicExecutionRole: only this function's own log group.
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );
    const common: CommonFunctionProps = {
      functionName: props.functionName,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      systemLogLevelV2: SYSTEM_LOG_LEVEL,
      // X-Ray active tracing: Lambda samples and records each invocation, and CDK grants the role the two X-Ray
      // write actions; the handler's Powertools Tracer adds its SDK calls (docs/adr/0480-functions-traced-with-powertools-tracer.md).
      tracing: lambda.Tracing.ACTIVE,
      environment: props.environment,
      ...(props.codeSigningConfig !== undefined ? { codeSigningConfig: props.codeSigningConfig } : {}),
    };
    this.fn = this.prebuilt(props, common) ?? this.fromSource(props, common);
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray only allows on every ' +
        'resource (they take no resource-level permission); they write trace data and read nothing ' +
        '(docs/adr/0480-functions-traced-with-powertools-tracer.md).',
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs24.x on purpose (ADR 0110): the evaluator build digest recorded in every ledger entry names ' +
        'one runtime, and moving to a newer runtime is a reviewed release (new build digest in the trust policy), ' +
        'never an implicit upgrade.',
    });
  }

  /** The bundle shipped inside an installed @docket/cdk (built by fromSource when the package was built). */
  private prebuilt(props: DocketFunctionProps, common: CommonFunctionProps): lambda.Function | undefined {
    const dir = prebuiltHandlerDirectory(props.entry, props.bundleAwsSdk === true);
    if (dir === undefined) return undefined;
    return new lambda.Function(this, 'Function', {
      ...common,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(dir),
    });
  }

  /** Bundled from the repository's handler source at synth time. */
  private fromSource(props: DocketFunctionProps, common: CommonFunctionProps): lambda.Function {
    const root = repoRoot();
    const entry = join(root, props.entry);
    if (existsSync(entry)) {
      return new NodejsFunction(this, 'Function', {
        ...common,
        entry,
        handler: 'handler',
        projectRoot: root,
        depsLockFilePath: join(root, 'package-lock.json'),
        bundling: {
          format: OutputFormat.ESM,
          target: 'node24',
          mainFields: ['module', 'main'],
          banner: ESM_REQUIRE_BANNER,
          // Small bundle, fast cold start; keepNames keeps function names readable in stack traces.
          minify: true,
          keepNames: true,
          sourceMap: false,
          // The AWS SDK v3 comes from the nodejs24.x runtime (ADR 0421, ADR 0110): it only moves bytes,
          // never decides a disposition, and leaving it out halves the bundle (≈ 330 KB instead of ≈ 710 KB).
          // Docket imports no @smithy module itself: every AWS call goes through the clients' command path
          // (ADR 0285), so nothing of the SDK is inlined.
          externalModules: props.bundleAwsSdk === true ? [] : ['@aws-sdk/*'],
          // adapters/aws-sdk.ts loads the runtime's SDK with require() (faster module init); a bundled SDK must be
          // inlined instead, which this define selects at build time.
          ...(props.bundleAwsSdk === true
            ? { define: { 'process.env.DOCKET_BUNDLED_SDK': JSON.stringify('true') } }
            : {}),
          forceDockerBundling: false,
        },
      });
    }
    if (!Stack.of(this).bundlingRequired) {
      // The handler is not written yet and this synth skips bundling (unit tests): keep every property, with a
      // stub body that fails loudly if ever deployed.
      return new lambda.Function(this, 'Function', {
        ...common,
        handler: 'index.handler',
        code: lambda.Code.fromInline(
          `exports.handler = async () => { throw new Error('${props.entry} was not built'); };`,
        ),
      });
    }
    throw new Error(`cannot bundle ${props.functionName}: ${props.entry} does not exist`);
  }
}
