/**
 * Where the console reads a ledger from (docs/console.md "Sources"): a stack (the running local stack by default, or
 * AWS with the usual stack flags; read-only access is enough) or files (a ledger export, a checkpoint export and a
 * trust policy). Verify and replay run the same code as `docket verify` and `docket replay`.
 */
import { existsSync } from 'node:fs';
import { readCheckpointExport, readTrustPolicy, type LedgerStore, type TrustPolicy } from '../../core/ledger/index.js';
import type { WitnessInputs } from '../../core/ledger/index.js';
import { readLedgerExportFast, verifyExportFiles } from '../../core/ledger/index.js';
import type { ArchiveCheck, NoVerdict, SignedEntry, Verdict } from '../../core/ledger/index.js';
import { EVALUATOR_IDENTITY } from '../../core/evaluate/index.js';
import { replayLedger, type ReplayOutcome } from '../../core/replay/index.js';
import type { Result } from '../../core/result.js';
import { localPaths } from '../../stack/local-files.js';
import { resolveSettings, type SettingFlags } from '../../stack/settings.js';
import { explainStackError } from '../../stack/clients.js';
import { stackDeps, type ReplayDeps } from '../commands/replay.js';
import { NO_CHECKPOINTS, verifyLive, withTableNotes } from '../commands/verify.js';
import { ExportStore } from './file-store.js';
import { readBytesOrError } from '../io.js';
import { packRules } from './pack-rules.js';
import { graphRules } from './graph-rules.js';
import { routeQueueConfig, type HandoffContext } from './handoffs.js';
import { loadPackBytes } from '../../core/admission/index.js';
import { fetchPack } from '../../core/replay/index.js';
import { approximateDepth } from '../../adapters/sqs.js';
import { resolveConfig } from '../../infra/config.js';
import { openStack, type StackClients } from '../../stack/clients.js';
import { archiveCheckOf } from '../../stack/request-omissions.js';
import type { GraphRulesView, PackRulesView, ReplayView } from '../../core/console-api/index.js';

/** ADR 0102: what replay compares, in its order (shown beside a match so the auditor sees what "match" covers). */
export const REPLAY_COMPARED = [
  'requestId',
  'correlation',
  'pack.digest',
  'factsDigest',
  'evidenceDigest',
  'workBudget',
  'pack.id',
  'pack.version',
  'specVersion',
  'result (disposition bytes, or error class, phase and code)',
  'work',
] as const;

export interface ConsoleSource {
  /** One line for people: what the console reads. */
  readonly description: string;
  readonly retention: string;
  readonly store: LedgerStore;
  readonly policy: TrustPolicy | null;
  /** Why the trust policy could not be read (signatures then show `no-policy`; verify gives no verdict). */
  readonly policyProblem: string | null;
  /** `--witnesses`: the witness policy and the --cosigned files' notes; null when no witness policy was given. */
  readonly witnesses: ConsoleWitnesses | null;
  /**
   * The witness inputs as verify judges them now: the files' notes plus, from a stack, the table's own notes and
   * cosignatures (as `docket verify --witnesses` gathers them); null without a witness policy.
   */
  witnessInputs(): Promise<WitnessInputs | null>;
  /**
   * The request archive cross-check `docket verify` adds on the live path (docs/verify.md "Requests without an
   * entry"); absent for files, which hold no archive. Throws when the archive or a queue cannot be read.
   */
  archiveCheck?(): Promise<ArchiveCheck>;
  /** Runs verify as `docket verify` does (with `--witnesses` when the console was given a witness policy). */
  verify(onProgress: (entries: number) => void, progressEvery: number): Promise<Result<Verdict, NoVerdict>>;
  replay(requestId: string): Promise<ReplayView>;
  /** How the handoffs of an entry are derived and their queues named (ADR 0233). */
  readonly handoffs: HandoffContext;
  /** The registered pack's rules for the entry's pack digest and which fired (ADR 0232). */
  packRules(requestId: string, packDigest: string): Promise<PackRulesView>;
  /** The pack rules that fired at each leaf of a graph-run entry (ADR 0371). */
  graphRules(entry: Extract<SignedEntry, { kind: 'graph-run' }>): Promise<GraphRulesView>;
  close(): void;
}

/** The witness policy and cosigned notes as `docket verify --witnesses` reads them, and the clock to judge with. */
export interface ConsoleWitnesses {
  /** From readWitnessFiles; its `now` is ignored in favour of `now()`. */
  readonly inputs: WitnessInputs;
  /** Seconds since the epoch: `--now` when given, else the machine's clock at each judgement. */
  now(): number;
}

const withNow = (w: ConsoleWitnesses | null): WitnessInputs | undefined =>
  w === null ? undefined : { ...w.inputs, now: w.now() };

export class SourceError extends Error {
  readonly code = 'console-source-unreadable';
}

async function readBytes(path: string, what: string): Promise<Uint8Array> {
  const bytes = await readBytesOrError(path);
  if (bytes instanceof Error) throw new SourceError(`cannot read the ${what} ${path}: ${bytes.message}`);
  return bytes;
}

function policyOf(bytes: Uint8Array | null, path: string): { policy: TrustPolicy | null; problem: string | null } {
  if (bytes === null) return { policy: null, problem: `no trust policy at ${path}` };
  const p = readTrustPolicy(bytes);
  return p.ok ? { policy: p.value, problem: null } : { policy: null, problem: `${path}: ${p.error.detail}` };
}

export interface FileSourceOptions {
  readonly exportPath: string;
  readonly checkpointsPath?: string;
  readonly policyPath: string;
  readonly witnesses?: ConsoleWitnesses;
}

export async function openFileSource(o: FileSourceOptions): Promise<ConsoleSource> {
  const ledger = await readBytes(o.exportPath, 'ledger export');
  const checkpoints = o.checkpointsPath ? await readBytes(o.checkpointsPath, 'checkpoint export') : NO_CHECKPOINTS;
  const policyBytes = existsSync(o.policyPath) ? await readBytes(o.policyPath, 'trust policy') : null;
  const exp = readLedgerExportFast(ledger);
  if (!exp.ok) throw new SourceError(`${o.exportPath} line ${exp.error.line}: ${exp.error.detail}`);
  const cps = readCheckpointExport(checkpoints);
  if (!cps.ok) throw new SourceError(`${o.checkpointsPath ?? 'checkpoints'}: ${cps.error.detail}`);
  const { policy, problem } = policyOf(policyBytes, o.policyPath);
  const witnesses = o.witnesses ?? null;
  return {
    description: `files: ${o.exportPath}`,
    retention: 'files: no request archive (an export holds entries, not requests)',
    store: new ExportStore(exp.value.entries, cps.value),
    policy,
    policyProblem: problem,
    witnesses,
    witnessInputs: () => Promise.resolve(withNow(witnesses) ?? null),
    verify: (onProgress, progressEvery) => {
      const w = withNow(witnesses);
      return verifyExportFiles(
        { ledger, checkpoints, policy: policyBytes ?? new Uint8Array() },
        { onProgress, progressEvery, ...(w ? { witnesses: w } : {}) },
      );
    },
    replay: () =>
      Promise.resolve({
        available: false,
        reason: 'replay needs the request archive and the pack registry of a stack; files hold neither',
      }),
    packRules: () =>
      Promise.resolve({ registered: false, reason: 'files: no pack registry (an export holds entries, not packs)' }),
    graphRules: () =>
      Promise.resolve({
        known: false,
        reason: 'files: no request archive or graph registry (an export holds entries, not requests or graphs)',
      }),
    handoffs: {
      config: null,
      routesDescription: "files: the deployment's route configuration is not known, so queues are not named",
      packTarget: () => Promise.resolve('unknown'),
    },
    close: () => undefined,
  };
}

export interface StackSourceOptions {
  /** The stack flags as given (--endpoint, --region, --stage, --table, …), resolved like every command's. */
  readonly flags: SettingFlags;
  readonly policyPath?: string;
  /**
   * A checkpoint export to verify against; absent, the local run's (`.docket/local/checkpoints.json`) when it exists;
   * null, none: the checkpoints stored in the table only.
   */
  readonly checkpointsPath?: string | null;
  /** How replay reaches the stack and names this build (tests pin the build digest). */
  readonly replayDeps?: ReplayDeps;
  readonly witnesses?: ConsoleWitnesses;
  /** How a queue's depth is read (GetQueueAttributes by default; tests substitute). */
  readonly queueDepth?: (queue: string) => Promise<{ visible: number; inFlight: number } | null>;
}

export async function openStackSource(o: StackSourceOptions): Promise<ConsoleSource> {
  const settings = resolveSettings(o.flags, process.env);
  const local = localPaths();
  const policyPath = o.policyPath ?? local.trustPolicy;
  const checkpointsPath =
    o.checkpointsPath === null
      ? undefined
      : (o.checkpointsPath ?? (existsSync(local.checkpoints) ? local.checkpoints : undefined));
  const policyBytes = existsSync(policyPath) ? await readBytes(policyPath, 'trust policy') : null;
  const checkpointBytes = checkpointsPath ? await readBytes(checkpointsPath, 'checkpoint export') : undefined;
  const { policy, problem } = policyOf(policyBytes, policyPath);
  const deps = o.replayDeps ?? stackDeps;
  const opened = deps.open(settings);
  const witnesses = o.witnesses ?? null;
  /** One `docket replay --request` outcome (with the §8.3 trace when asked); null when no entry records it. */
  async function replayOne(requestId: string, trace: boolean): Promise<ReplayOutcome | null> {
    const options = {
      policy: policy as TrustPolicy,
      fetch: opened.fetch,
      evaluator: { ...EVALUATOR_IDENTITY, buildDigest: deps.buildDigest() },
      ...(trace ? { trace: true } : {}),
    };
    for await (const outcome of replayLedger(opened.store, { kind: 'request', requestId }, options)) return outcome;
    return null;
  }
  // The stage as deployed: its defaults and its preset (the local stage routes every example target, infra/config.ts).
  let sqs: StackClients | null = null;
  const handoffs: HandoffContext = {
    config: routeQueueConfig(settings, resolveConfig({ stage: settings.stage }).routes),
    routesDescription: `the routes a ${settings.stage} stack is deployed with by default (infra/config.ts), queues named by the stage`,
    async packTarget(digest) {
      const bytes = await fetchPack(opened.fetch, digest);
      if (!bytes.ok || bytes.value === null) return undefined;
      // As the evaluate function: a pack that is not found (or not conformant) gives no target.
      const loaded = loadPackBytes(digest, bytes.value);
      return loaded.status === 'found' ? loaded.pack.target : undefined;
    },
    queueDepth:
      o.queueDepth ??
      (async (queue) => {
        try {
          sqs ??= openStack(settings);
          const d = await approximateDepth(sqs.sqs, await sqs.queueUrl(queue));
          return { visible: d.visible, inFlight: d.inFlight };
        } catch {
          return null;
        }
      }),
  };
  return {
    description: `stack ${settings.stage} at ${settings.endpoint ?? 'AWS'} (table ${settings.ledgerTable})`,
    retention: `request archive ${settings.requestsTable}: requests are kept until purged (or expired by the stage's TTL, when one is configured)`,
    store: opened.store,
    policy,
    policyProblem: problem,
    witnesses,
    async witnessInputs() {
      const w = withNow(witnesses);
      return w === undefined ? null : withTableNotes(opened.store, await opened.store.listLogs(), w);
    },
    verify: (onProgress, progressEvery) => {
      const w = withNow(witnesses);
      return verifyLive(
        o.flags as Record<string, unknown>,
        policyBytes ?? new Uint8Array(),
        checkpointBytes,
        undefined,
        { allSignatures: false, onProgress, progressEvery, ...(w ? { witnesses: w } : {}) },
        { openStore: () => ({ store: opened.store, close: () => undefined }) },
      );
    },
    async archiveCheck() {
      sqs ??= openStack(settings);
      return archiveCheckOf(sqs);
    },
    async replay(requestId) {
      if (policy === null) return { available: false, reason: `replay needs a trust policy: ${problem}` };
      try {
        const outcome = await replayOne(requestId, false);
        if (outcome === null) return { available: false, reason: `no entry records request ${requestId}` };
        return { available: true, outcome, compared: REPLAY_COMPARED };
      } catch (e) {
        return { available: false, reason: explainStackError(e, settings) };
      }
    },
    async packRules(requestId, packDigest) {
      try {
        return await packRules(opened.fetch, packDigest, async () => {
          if (policy === null) return null;
          return replayOne(requestId, true);
        });
      } catch (e) {
        return { registered: false, reason: explainStackError(e, settings) };
      }
    },
    async graphRules(entry) {
      try {
        return await graphRules(entry, {
          requestBytes: (d) => opened.fetch.requestBytes(d),
          graph: async (d) => {
            sqs ??= openStack(settings);
            return sqs.graphs.getGraph(d);
          },
        });
      } catch (e) {
        return { known: false, reason: explainStackError(e, settings) };
      }
    },
    handoffs,
    close: () => {
      opened.close();
      sqs?.close();
    },
  };
}
