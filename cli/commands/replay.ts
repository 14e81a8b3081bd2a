/**
 * `docket replay` (docs/replay.md; USAGE below), over core/replay: one JSON line per entry replayed, then a summary
 * line. With no flags, every log of the local stack under the trust policy `npm start` wrote.
 */
import { EXIT, flagTable, parseCommandArgs, readCommandLine, UsageError } from '../args.js';
import { readBytesOrError, type CliIo } from '../io.js';
import { reportNoVerdict } from '../no-verdict.js';
import { ArchiveIntegrityError } from '../../adapters/dynamodb-request-archive.js';
import { RegistryIntegrityError } from '../../adapters/dynamodb-pack-registry.js';
import { EVALUATOR_IDENTITY } from '../../core/evaluate/index.js';
import {
  outcomeLine,
  replayLedger,
  ReplayTally,
  summaryLine,
  type ReplayFetchers,
  type ReplaySelection,
} from '../../core/replay/index.js';
import type { LedgerStore } from '../../core/ledger/index.js';
import { readTrustPolicy } from '../../core/ledger/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP, type StackSettings } from '../../stack/settings.js';
import { buildDigest } from '../../functions/lib/build-digest.js';
import { localPaths } from '../../stack/local-files.js';
import { explainStackError, openStack } from '../../stack/clients.js';

const USAGE = `docket replay [--log <id> [--seq <n> | --from <n> [--to <n>]]] [--request <id>] [--policy <trust-policy.json>]
                     [--max-work-budget <n>] [--across-evaluators]
  Without a selection, replays every log. --log alone replays one log; with --seq one entry; with --from/--to an
  inclusive range. --request replays the entry of one request id. Default --policy .docket/local/trust-policy.json.
  --max-work-budget: the deployment's maximum budget, to re-judge work-budget-out-of-range refusals.
  --across-evaluators: also replay entries recorded by another evaluator name/version (ADR 0100).
  Prints one JSON line per entry and a summary line; exit 0 all match, 1 any mismatch or not-replayable, 2 unreadable.
${SETTINGS_HELP}`;

/** A progress line on stderr every this many entries (stdout stays one JSON line per entry). */
const PROGRESS_EVERY = 10_000;

/** How the command reaches the stack; tests substitute in-memory stores and fetchers. */
export interface ReplayDeps {
  readonly open: (settings: StackSettings) => {
    readonly store: LedgerStore;
    readonly fetch: ReplayFetchers;
    close(): void;
  };
  /** The running evaluator's build digest (the same rule as the evaluate function's, ADR 0072). */
  readonly buildDigest: () => string;
}

const corruptOr =
  (code: string) =>
  async <T>(get: () => Promise<T | null>): Promise<T | null | { corrupt: string }> => {
    try {
      return await get();
    } catch (e) {
      // The adapters re-hash what they read and throw a typed integrity error: replay reports it, never serves it.
      if (
        e instanceof ArchiveIntegrityError ||
        e instanceof RegistryIntegrityError ||
        (e as { code?: string }).code === code
      )
        return { corrupt: (e as Error).message };
      throw e;
    }
  };

export const stackDeps: ReplayDeps = {
  open: (settings) => {
    const stack = openStack(settings);
    const archive = corruptOr('archive-integrity');
    const registry = corruptOr('registry-integrity');
    return {
      store: stack.store,
      fetch: {
        requestBytes: (d) => archive(() => stack.archive.get(d)),
        packBytes: (d) => registry(() => stack.registry.getPack(d)),
        // An alias item with no valid digest is reported (alias-unreadable replays against it, ADR 0485), never thrown.
        resolveAlias: (a) => registry(() => stack.registry.resolveAlias(a)),
        // Published graphs (ADR 0340) for graph runs (ADR 0361): the registry's integrity refusal is reported, never served.
        publishedGraph: (d) => registry(() => stack.graphs.getGraph(d)),
        resolveGraphAlias: (a) => registry(() => stack.graphs.resolveGraphAlias(a)),
      },
      close: () => stack.close(),
    };
  },
  // dist/cli/commands/replay.js → dist/functions/evaluate.js: the module the local stack runs as the evaluate function.
  buildDigest: () => buildDigest(process.env, new URL('../../functions/evaluate.js', import.meta.url).href),
};

function seqOf(v: unknown, what: string): number | undefined {
  if (typeof v !== 'string') return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw new UsageError(`${what} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

function selectionOf(values: Record<string, unknown>): ReplaySelection {
  const log = typeof values.log === 'string' ? values.log : undefined;
  const request = typeof values.request === 'string' ? values.request : undefined;
  const seq = seqOf(values.seq, '--seq');
  const from = seqOf(values.from, '--from');
  const to = seqOf(values.to, '--to');
  if (request !== undefined) {
    if (log !== undefined || seq !== undefined || from !== undefined || to !== undefined)
      throw new UsageError('--request selects one entry; do not combine it with --log, --seq, --from or --to');
    return { kind: 'request', requestId: request };
  }
  if (log === undefined) {
    if (seq !== undefined || from !== undefined || to !== undefined)
      throw new UsageError('--seq, --from and --to need --log');
    return { kind: 'all' };
  }
  if (seq !== undefined) {
    if (from !== undefined || to !== undefined) throw new UsageError('use either --seq or --from/--to');
    return { kind: 'entry', logId: log, seq };
  }
  if (from === undefined && to === undefined) return { kind: 'log', logId: log };
  const fromSeq = from ?? 0;
  if (to !== undefined && to < fromSeq) throw new UsageError('--to must not be below --from');
  return { kind: 'range', logId: log, fromSeq, ...(to !== undefined ? { toSeq: to } : {}) };
}

const unreadable = (io: CliIo, code: string, detail: string): number => reportNoVerdict(io, 'replay', { code, detail });

export async function run(argv: string[], io: CliIo, deps: ReplayDeps = stackDeps): Promise<number> {
  const line = readCommandLine(io, 'replay', USAGE, () => {
    const { values } = parseCommandArgs(
      argv,
      {
        ...SETTING_FLAGS,
        ...flagTable(['log', 'seq', 'from', 'to', 'request', 'policy', 'max-work-budget'], ['across-evaluators']),
      },
      USAGE,
    );
    const selection = selectionOf(values);
    const maxWorkBudget = seqOf(values['max-work-budget'], '--max-work-budget');
    if (maxWorkBudget === 0) throw new UsageError('--max-work-budget must be positive');
    return { values, selection, maxWorkBudget };
  });
  if (!line.ok) return line.exit;
  const { values, selection, maxWorkBudget } = line.args;

  const policyPath = typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy;
  const policyBytes = await readBytesOrError(policyPath);
  if (policyBytes instanceof Error) return unreadable(io, 'policy-unreadable', `${policyPath}: ${policyBytes.message}`);
  const policy = readTrustPolicy(policyBytes);
  if (!policy.ok) return unreadable(io, 'policy-unreadable', `${policyPath}: ${policy.error.detail}`);

  let build: string;
  try {
    build = deps.buildDigest();
  } catch (e) {
    return unreadable(io, 'build-digest-unavailable', (e as Error).message);
  }
  const settings = resolveSettings(values as never, process.env);
  const { store, fetch, close } = deps.open(settings);
  const tally = new ReplayTally();
  try {
    const options = {
      policy: policy.value,
      fetch,
      evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest: build },
      acrossEvaluators: values['across-evaluators'] === true,
      ...(maxWorkBudget !== undefined ? { maxWorkBudget } : {}),
    };
    let n = 0;
    for await (const o of replayLedger(store, selection, options)) {
      tally.add(o);
      io.stdout(outcomeLine(o));
      if (++n % PROGRESS_EVERY === 0) io.stderr(`docket replay: ${n.toLocaleString('en-US')} entries replayed\n`);
    }
  } catch (e) {
    // A read cut short (ledger, archive or registry) ends the run without a summary: no shorter verdict.
    return unreadable(io, 'ledger-unreadable', explainStackError(e, settings));
  } finally {
    close();
  }
  const summary = tally.summary();
  io.stdout(summaryLine(summary));
  return summary.ok ? EXIT.OK : EXIT.NOT_OK;
}
