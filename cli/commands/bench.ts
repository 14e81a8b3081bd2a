/**
 * `docket bench live --rate <R> --duration <D>`: a live check of a stack against the scale model (docs/deploy.md
 * "Observe it", docs/adr/0481-live-check-reads-the-functions-own-metrics.md). Sends R evaluation requests a second for
 * D seconds through the stack's intake, waits for each one's verified result, reads the functions' own metrics of the
 * run and prints one JSON object with the scale model's figures (cli/bench/live-figures.ts). Exit 0 when every request
 * was sent and its result arrived, 1 otherwise (the JSON is printed either way), 64 for a wrong command line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { createSnsClient } from '../../adapters/aws-clients.js';
import { readTrustPolicy } from '../../core/ledger/index.js';
import { buildRequest } from '../../core/pipeline/index.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { localPaths } from '../../stack/local-files.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { EXIT, flagTable, HelpRequested, parseCommandArgs, readCommandLine, UsageError, fail } from '../args.js';
import { liveCheck } from '../bench/live-check.js';
import { packageFile } from '../console/server.js';
import { readInput, type CliIo } from '../io.js';
import { resultsTopicArn, snsOptions } from '../results-topic.js';

const USAGE = `docket bench live --rate <requests/s> --duration <seconds> [--timeout <seconds>]
         [--pack <sha256:…|id@version> --facts <file> [--evidence <file>]] [--policy <trust-policy.json>]
         [--results-topic <arn>] [--metrics-log <file>]
  Sends rate × duration evaluation requests through the stack's intake, waits up to --timeout seconds (default 60)
  after the last send for each verified result, and prints one JSON object with the scale model's figures.
  Default request: the example triage pack (published by "npm start") with its complete facts and evidence.
  --metrics-log: where the functions' EMF lines go (default for the local stack: .docket/local/stack.log); on AWS
  the functions' metrics are in CloudWatch, which this build does not read (docs/deploy.md "Observe it").
${SETTINGS_HELP}`;

const FLAGS = {
  ...SETTING_FLAGS,
  ...flagTable(['rate', 'duration', 'timeout', 'pack', 'facts', 'evidence', 'policy', 'results-topic', 'metrics-log']),
};

/** The default request: an example pack `docket local start` publishes, with documents that decide it. */
const DEFAULT_REQUEST = {
  pack: 'examples/data-request-intake-triage.json',
  facts: 'examples/requests/triage-complete-appropriate.facts.json',
  evidence: 'examples/requests/triage-all-present.evidence.json',
};

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h') throw new HelpRequested(USAGE);
  if (sub !== 'live') {
    io.stderr(`usage: ${USAGE}\n`);
    return EXIT.USAGE;
  }
  const line = readCommandLine(io, 'bench live', USAGE, () => {
    const { values } = parseCommandArgs(rest, FLAGS, USAGE);
    const v = values as Record<string, string | boolean | undefined>;
    if (typeof v.rate !== 'string' || typeof v.duration !== 'string')
      throw new UsageError('give --rate and --duration');
    if ((v.pack === undefined) !== (v.facts === undefined)) throw new UsageError('--pack and --facts go together');
    if (v.evidence !== undefined && v.pack === undefined)
      throw new UsageError('--evidence goes with --pack and --facts');
    return {
      v,
      rate: positiveNumber(v.rate, '--rate'),
      duration: positiveNumber(v.duration, '--duration'),
      timeout: typeof v.timeout === 'string' ? positiveNumber(v.timeout, '--timeout') : 60,
    };
  });
  if (!line.ok) return line.exit;
  const { v, rate, duration, timeout } = line.args;

  const policyPath = typeof v.policy === 'string' ? v.policy : localPaths().trustPolicy;
  const policy = readTrustPolicy(await readInput(policyPath, io));
  if (!policy.ok) return fail(io, 'bench live', `${policyPath}: ${policy.error.detail}`, EXIT.FAILED);
  const docs = await requestDocuments(v, io);
  const runId = randomBytes(4).toString('hex');
  const settings = resolveSettings(v as never, process.env);
  const stack = openStack(settings);
  const sns = createSnsClient(snsOptions(settings), process.env);
  try {
    const intakeUrl = await stack.queueUrl(settings.intakeQueue);
    const figures = await liveCheck({
      stack,
      sns,
      intakeUrl,
      resultsTopicArn: resultsTopicArn(v['results-topic'] as string | undefined, intakeUrl, settings),
      policy: policy.value,
      rate,
      durationSeconds: duration,
      waitSeconds: timeout,
      request: (i) => {
        const requestId = `bench-${runId}-${i}`;
        const built = buildRequest({ requestId, ...docs });
        if (!built.ok) throw new UsageError(`the request cannot be built: ${built.error}`);
        return { requestId, text: built.value };
      },
      // The local stack writes its functions' stdout to .docket/local/stack.log (localstack/daemon.ts); a deployed
      // stage's go to CloudWatch (docs/deploy.md "Observe it").
      metricsLog:
        (v['metrics-log'] as string | undefined) ??
        (settings.endpoint !== undefined ? join(localPaths().dir, 'stack.log') : undefined),
      io,
    });
    io.stdout(`${JSON.stringify(figures)}\n`);
    return figures.missing === 0 && figures.sent === figures.requests ? EXIT.OK : EXIT.FAILED;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return fail(io, 'bench live', explainStackError(e, settings), EXIT.FAILED);
  } finally {
    sns.destroy();
    stack.close();
  }
}

async function requestDocuments(v: Record<string, string | boolean | undefined>, io: CliIo) {
  if (typeof v.pack === 'string' && typeof v.facts === 'string')
    return {
      pack: v.pack,
      facts: await readInput(v.facts, io),
      ...(typeof v.evidence === 'string' ? { evidence: await readInput(v.evidence, io) } : {}),
    };
  const packBytes = readFileSync(packageFile(DEFAULT_REQUEST.pack));
  return {
    // Published by its exact bytes' digest (ADR 0062): this names exactly the example `npm start` published.
    pack: `sha256:${createHash('sha256').update(packBytes).digest('hex')}`,
    facts: new Uint8Array(readFileSync(packageFile(DEFAULT_REQUEST.facts))),
    evidence: new Uint8Array(readFileSync(packageFile(DEFAULT_REQUEST.evidence))),
  };
}

function positiveNumber(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${what} must be a positive number, got ${JSON.stringify(text)}`);
  return n;
}
