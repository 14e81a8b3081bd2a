/**
 * @docket/cdk and the `docket` CLI proved from the outside: each is built and packed (scripts/build-packages.mjs), its
 * tarball installed into a fresh project in a temporary directory outside the repository, and used there.
 *
 * - @docket/cdk: the README's example app — DocketPipeline next to the project's own queue, role and Lambda, a
 *   consumer wired to a route queue with grantConsumeRoute, cdk-nag's AwsSolutions checks — synthesizes clean, and
 *   its functions deploy the package's prebuilt handlers.
 * - docket: `npx docket --help` and a real command run from the installed tarball.
 *
 * The tarballs are installed by npm (the CDK package, which has only peer dependencies) or unpacked as npm would (the
 * CLI, whose dependencies npm would fetch from the registry); the third-party packages each needs (aws-cdk-lib,
 * constructs, cdk-nag; the CLI's declared dependencies, and only those) are linked from this repository's
 * node_modules, so nothing is downloaded. The CLI tarball is built from dist/: run `npm run build` first.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, packPackage, ROOT } from '../../scripts/build-packages.mjs';

type Cfn = Record<string, any>;

const NODE = process.execPath;

/** A fresh, empty ESM project outside the repository. */
function freshProject(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `docket-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }));
  return dir;
}

/** Links third-party `packages` from this repository's node_modules into the project's. */
function linkFromRepository(project: string, packages: readonly string[]): void {
  for (const p of packages) {
    const at = join(project, 'node_modules', p);
    mkdirSync(join(at, '..'), { recursive: true });
    if (!existsSync(at)) symlinkSync(join(ROOT, 'node_modules', p), at, 'dir');
  }
}

/** The first ```ts block of a README. */
function readmeExample(readme: string): string {
  const m = /```ts\n([\s\S]*?)```/.exec(readme);
  if (m === null) throw new Error('the README has no ```ts example');
  return m[1]!;
}

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' };
  for (const k of [
    'AWS_PROFILE',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'CDK_DEFAULT_ACCOUNT',
    'CDK_DEFAULT_REGION',
  ])
    delete env[k];
  return env;
};

describe('@docket/cdk installed from its tarball', { timeout: 600_000 }, () => {
  let project: string;
  let outDir: string;
  let synth: ReturnType<typeof spawnSync>;

  beforeAll(async () => {
    const { dir } = await buildPackage('cdk');
    const tarball = packPackage(dir);
    project = freshProject('cdk-user');
    // Peer dependencies only: npm installs the tarball itself and fetches nothing (--offline would fail otherwise).
    execFileSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts', tarball],
      {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    linkFromRepository(project, ['aws-cdk-lib', 'constructs', 'cdk-nag']);
    writeFileSync(join(project, 'app.ts'), readmeExample(readFileSync(join(ROOT, 'packages/cdk/README.md'), 'utf8')));
    outDir = join(project, 'cdk.out');
    synth = spawnSync(NODE, ['app.ts'], {
      cwd: project,
      env: { ...cleanEnv(), CDK_OUTDIR: outDir },
      encoding: 'utf8',
      timeout: 300_000,
    });
  }, 600_000);

  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('is installed as a package of the project, not a path into this repository', () => {
    const installed = join(project, 'node_modules', '@docket', 'cdk');
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).name).toBe('@docket/cdk');
    expect(existsSync(join(installed, 'handlers', 'runtime-sdk', 'evaluate', 'index.mjs'))).toBe(true);
    expect(readFileSync(join(installed, 'dist', 'index.js'), 'utf8')).not.toContain(ROOT);
  });

  it('synthesizes the README example — DocketPipeline beside the team’s queue and consumer Lambda — with cdk-nag clean', () => {
    expect(synth.status, `${synth.stderr}`).toBe(0);
    const t = JSON.parse(readFileSync(join(outDir, 'Claims.template.json'), 'utf8')) as Cfn;
    const of = (type: string) => Object.entries<Cfn>(t.Resources).filter(([, r]) => r.Type === type);
    const queues = of('AWS::SQS::Queue').map(([, r]) => r.Properties.QueueName as string | undefined);
    expect(queues).toContain('docket-claims-intake');
    expect(queues).toContain('docket-claims-route-review');
    // The team's own queue and DLQ (no physical name) are there too.
    expect(queues.filter((n) => n === undefined)).toHaveLength(2);
    const tables = of('AWS::DynamoDB::Table').map(([, r]) => r.Properties.TableName);
    expect(tables.sort()).toEqual(['docket-claims-ledger', 'docket-claims-packs', 'docket-claims-requests']);
    // The Validations plugin reported nothing but success (the control below shows it runs and can fail).
    const report = JSON.parse(readFileSync(join(outDir, 'validation-report.json'), 'utf8')) as {
      pluginReports: Array<{ pluginName?: string; summary?: { status?: string } }>;
    };
    for (const p of report.pluginReports) expect(p.summary?.status ?? 'success', p.pluginName).toBe('success');
  });

  it('cdk-nag does run in that project: the same app with one unreviewed queue added fails synthesis', () => {
    const app = readFileSync(join(project, 'app.ts'), 'utf8').replace(
      'app.synth();',
      "new sqs.Queue(stack, 'Unreviewed');\napp.synth();",
    );
    writeFileSync(join(project, 'control.ts'), app);
    const r = spawnSync(NODE, ['control.ts'], {
      cwd: project,
      env: { ...cleanEnv(), CDK_OUTDIR: join(project, 'control.out') },
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/AwsSolutions-SQS3/);
  });

  it('wires the consumer to the route queue and attaches the route’s consumer policy to its role', () => {
    const t = JSON.parse(readFileSync(join(outDir, 'Claims.template.json'), 'utf8')) as Cfn;
    const res = Object.entries<Cfn>(t.Resources);
    const routeQueue = res.find(([, r]) => r.Properties?.QueueName === 'docket-claims-route-review')![0];
    const consumerFn = res.find(([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('ReviewConsumer'))!;
    const mapping = res.find(
      ([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName.Ref === consumerFn[0],
    )!;
    expect(mapping[1].Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [routeQueue, 'Arn'] });
    const consumerPolicy = res.find(
      ([, r]) =>
        r.Type === 'AWS::IAM::ManagedPolicy' &&
        r.Properties.ManagedPolicyName === 'docket-claims-route-review-consumer',
    )!;
    const roleId = consumerFn[1].Properties.Role['Fn::GetAtt'][0];
    expect(consumerPolicy[1].Properties.Roles).toEqual([{ Ref: roleId }]);
  });

  it('deploys the prebuilt handlers shipped in the package, one asset per Docket function', () => {
    const assets = JSON.parse(readFileSync(join(outDir, 'Claims.assets.json'), 'utf8')) as {
      files: Record<string, { source: { path: string } }>;
    };
    const t = JSON.parse(readFileSync(join(outDir, 'Claims.template.json'), 'utf8')) as Cfn;
    const docketFns = Object.values<Cfn>(t.Resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && String(r.Properties.FunctionName).startsWith('docket-claims-'),
    );
    expect(docketFns).toHaveLength(4);
    for (const fn of docketFns) {
      expect(fn.Properties.Handler).toBe('index.handler');
      const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      const staged = join(outDir, assets.files[hash]!.source.path, 'index.mjs');
      const name = String(fn.Properties.FunctionName).replace('docket-claims-', '');
      const shipped = join(project, 'node_modules/@docket/cdk/handlers/runtime-sdk', name, 'index.mjs');
      expect(readFileSync(staged).equals(readFileSync(shipped)), name).toBe(true);
    }
  });
});

describe('the docket CLI installed from its tarball', { timeout: 600_000 }, () => {
  let project: string;
  const docket = (...args: string[]) =>
    spawnSync('npx', ['--no-install', 'docket', ...args], {
      cwd: project,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    });

  beforeAll(async () => {
    const { dir, manifest } = await buildPackage('cli');
    const tarball = packPackage(dir);
    project = freshProject('cli-user');
    // What `npm install` does with the tarball, without fetching its dependencies: unpack it, link its bin.
    const installed = join(project, 'node_modules', 'docket');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    linkFromRepository(project, Object.keys(manifest.dependencies ?? {}));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync('../docket/bin/docket.js', join(project, 'node_modules', '.bin', 'docket'));
    chmodSync(join(installed, 'bin', 'docket.js'), 0o755);
  }, 600_000);

  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('`npx docket --help` lists every command', () => {
    const r = docket('--help');
    expect(r.status, r.stderr).toBe(0);
    for (const c of ['validate', 'evaluate', 'submit', 'verify', 'handoffs', 'local', 'console'])
      expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });

  it('runs a real command from the package with only its declared dependencies: validate an example pack', () => {
    const pack = join(project, 'node_modules/docket/examples/vendor-onboarding-target.json');
    const r = docket('validate', pack);
    expect(r.status, r.stderr).toBe(0);
    const broken = join(project, 'broken.json');
    writeFileSync(broken, '{"not":"a pack"}');
    expect(docket('validate', broken).status).not.toBe(0);
  });
});
