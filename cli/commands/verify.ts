/**
 * `docket verify` (docs/verify.md; USAGE below): a ledger — the live table or an export — against a trust policy and
 * signed checkpoints, the verdict as ONE JSON line on stdout; progress on stderr. With no flags, the local stack and
 * the files `npm start` writes under .docket/local/.
 */
import { existsSync } from 'node:fs';
import { EXIT, flagTable, parseCommandArgs, readCommandLine, UsageError } from '../args.js';
import { readBytesOrError, type CliIo } from '../io.js';
import { reportNoVerdict } from '../no-verdict.js';
import { readCheckpointExport } from '../../core/ledger/index.js';
import type { LedgerStore, Position, StoredCheckpoint } from '../../core/ledger/index.js';
import { readMarkers } from '../../core/ledger/index.js';
import { readPolicyBytes, verifyExportFiles } from '../../core/ledger/index.js';
import type { NoVerdict, Verdict } from '../../core/ledger/index.js';
import { storeCheckpoints, storeSource } from '../../core/ledger/index.js';
import { verifyLedger, withArchiveCheck, type ArchiveCheck } from '../../core/ledger/index.js';
import { err, type Result } from '../../core/result.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP, type StackSettings } from '../../stack/settings.js';
import { localPaths } from '../../stack/local-files.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { keepsNotes, cosignedNote, readWitnessFiles, type WitnessInputs } from '../../core/ledger/index.js';
import { crossCheckArchive, isMissingResource, type ArchiveCrossCheck } from '../../stack/request-omissions.js';

const USAGE = `docket verify [--export <ledger.jsonl>] [--checkpoints <checkpoints.json>] [--policy <trust-policy.json>] [--markers <markers.json>] [--all-signatures]
              [--witnesses <witness-policy.json> [--cosigned <checkpoint-notes.json | witness-state.json>]… [--now <RFC 3339>]]
  --witnesses requires a quorum of cosignatures on each log's newest checkpoint (docs/verify.md "Witnesses"); the
  cosigned notes come from each --cosigned file (default: .docket/local/checkpoint-notes.json and
  .docket/local/witness-state.json when present) plus, on the live path, the table's own notes and cosignatures.
  Without --export, reads the live ledger table (stack options below). Defaults: --policy .docket/local/trust-policy.json,
  --checkpoints .docket/local/checkpoints.json (the live table's own checkpoints are added when reading the table, and
  its own position markers are checked unless --markers names a file).
  On the live path it also cross-checks the request archive with the ledger: an archived request that no entry records
  is a finding request-without-entry, unless SQS's redrive moved it to a DLQ, its id is recorded for other bytes, or
  it may still be in flight; a first retention dated in the future is request-retained-in-future (docs/verify.md
  "Requests without an entry"); --skip-archive leaves this out.
  Prints one line of JSON {ok, findings, summary}; exit 0 ok, 1 not ok, 2 no verdict.
${SETTINGS_HELP}`;

const PROGRESS_EVERY = 10_000;

export const NO_CHECKPOINTS = new TextEncoder().encode('{"checkpoints":[],"format":"docket.checkpoint-export/1"}');

/** How the live path opens its store; tests may substitute another LedgerStore. */
export interface VerifyDeps {
  readonly openStore: (settings: StackSettings) => { readonly store: LedgerStore; close(): void };
  /**
   * The live path's cross-check of the request archive with the ledger (ADR 0292). When a test substitutes
   * openStore without this, there is no archive to read and the cross-check is not made.
   */
  readonly crossCheck?: (settings: StackSettings) => Promise<ArchiveCrossCheck>;
  /** Entries between progress updates on stderr (default 10,000). */
  readonly progressEvery?: number;
}
const defaultDeps: VerifyDeps = {
  openStore: (settings) => {
    const stack = openStack(settings);
    return { store: stack.store, close: () => stack.close() };
  },
  crossCheck: async (settings) => {
    const stack = openStack(settings);
    try {
      return await crossCheckArchive(stack);
    } finally {
      stack.close();
    }
  },
};

const noVerdict = (io: CliIo, nv: NoVerdict): number => reportNoVerdict(io, 'verify', nv);

function progress(io: CliIo): { onProgress: (n: number) => void; done: () => void } {
  let shown = false;
  return {
    onProgress: (n) => {
      shown = true;
      io.stderr(`\rdocket verify: ${n.toLocaleString('en-US')} entries checked`);
    },
    done: () => {
      if (shown) io.stderr('\n');
    },
  };
}

export async function run(argv: string[], io: CliIo, given: Partial<VerifyDeps> = {}): Promise<number> {
  const deps: VerifyDeps =
    given.openStore !== undefined && given.crossCheck === undefined
      ? { ...defaultDeps, ...given, crossCheck: undefined }
      : { ...defaultDeps, ...given };
  const line = readCommandLine(io, 'verify', USAGE, () => {
    const { values } = parseCommandArgs(
      argv,
      {
        ...SETTING_FLAGS,
        ...flagTable(['export', 'checkpoints', 'policy', 'markers'], ['all-signatures', 'skip-archive']),
        ...WITNESS_FLAGS,
      },
      USAGE,
    );
    checkWitnessFlags(values);
    return values;
  });
  if (!line.ok) return line.exit;
  const values = line.args;
  const local = localPaths();
  const allSignatures = values['all-signatures'] === true;
  const policyPath = typeof values.policy === 'string' ? values.policy : local.trustPolicy;
  const explicitCheckpoints = typeof values.checkpoints === 'string' ? values.checkpoints : undefined;
  const checkpointsPath = explicitCheckpoints ?? (existsSync(local.checkpoints) ? local.checkpoints : undefined);

  // Every input file named (or defaulted) is read first: one that cannot be read is no verdict, <name>-unreadable.
  const named = { policy: policyPath, checkpoints: checkpointsPath, markers: values.markers };
  const files: Partial<Record<keyof typeof named, Uint8Array>> = {};
  for (const [name, path] of Object.entries(named) as [keyof typeof named, unknown][]) {
    if (typeof path !== 'string') continue;
    const b = await readBytesOrError(path);
    if (b instanceof Error) return noVerdict(io, { code: `${name}-unreadable`, detail: `${path}: ${b.message}` });
    files[name] = b;
  }
  const { checkpoints: checkpointBytes, markers: markerBytes } = files;
  const policyBytes = files.policy!; // always named: it has a default
  let witnesses: WitnessInputs | undefined;
  if (typeof values.witnesses === 'string') {
    const w = await readWitnessInputs(values);
    if (!w.ok) return noVerdict(io, w.error);
    witnesses = w.value;
  }
  const bar = progress(io);
  const options = {
    allSignatures,
    onProgress: bar.onProgress,
    progressEvery: deps.progressEvery ?? PROGRESS_EVERY,
    ...(witnesses === undefined ? {} : { witnesses }),
  };

  let result: Result<Verdict, NoVerdict>;
  if (typeof values.export === 'string') {
    const ledger = await readBytesOrError(values.export);
    if (ledger instanceof Error)
      return noVerdict(io, { code: 'export-unreadable', detail: `${values.export}: ${ledger.message}` });
    // An export with no checkpoint file is judged with no anchors: every log fails closed (unregistered-log).
    const checkpoints = checkpointBytes ?? NO_CHECKPOINTS;
    result = await verifyExportFiles(
      { ledger, policy: policyBytes, checkpoints, ...(markerBytes ? { markers: markerBytes } : {}) },
      options,
    );
  } else {
    result = await verifyLive(values, policyBytes, checkpointBytes, markerBytes, options, deps);
    if (result.ok && deps.crossCheck !== undefined && values['skip-archive'] !== true) {
      const settings = resolveSettings(values as never, process.env);
      let check: ArchiveCheck;
      try {
        check = await deps.crossCheck(settings);
      } catch (e) {
        bar.done();
        // A stage with no request archive or intake queue (a ledger table alone) has nothing to cross-check: said,
        // not hidden. Any other failure to read them is no verdict, as for the ledger.
        if (!isMissingResource(e))
          return noVerdict(io, { code: 'store-read-incomplete', detail: explainStackError(e, settings) });
        check = { missing: explainStackError(e, settings) };
        io.stderr(`docket verify: the request archive was not cross-checked: ${check.missing}\n`);
      }
      bar.done();
      const out = withArchiveCheck(result.value, check);
      io.stdout(`${JSON.stringify(out)}\n`);
      return out.ok ? EXIT.OK : EXIT.NOT_OK;
    }
  }
  bar.done();
  if (!result.ok) return noVerdict(io, result.error);
  io.stdout(`${JSON.stringify(result.value)}\n`);
  return result.value.ok ? EXIT.OK : EXIT.NOT_OK;
}

/** The live path (also the console's verify over a stack, cli/console/source.ts). */
export async function verifyLive(
  values: Record<string, unknown>,
  policyBytes: Uint8Array,
  checkpointBytes: Uint8Array | undefined,
  markerBytes: Uint8Array | undefined,
  options: {
    allSignatures: boolean;
    onProgress: (n: number) => void;
    progressEvery: number;
    witnesses?: WitnessInputs;
  },
  deps: VerifyDeps,
): Promise<Result<Verdict, NoVerdict>> {
  const policy = readPolicyBytes(policyBytes);
  if (!policy.ok) return policy;
  const fromFile: StoredCheckpoint[] = [];
  if (checkpointBytes !== undefined) {
    const c = readCheckpointExport(checkpointBytes);
    if (!c.ok) return err({ code: 'checkpoints-unreadable', detail: c.error.detail });
    fromFile.push(...c.value);
  }
  let positions: Position[] | undefined;
  if (markerBytes !== undefined) {
    const m = readMarkers(markerBytes);
    if (!m.ok) return err({ code: 'markers-unreadable', detail: m.error });
    positions = [...m.value];
  }
  const settings = resolveSettings(values as never, process.env);
  const { store, close } = deps.openStore(settings);
  try {
    const logs = new Set([...policy.value.logs, ...(await store.listLogs()), ...fromFile.map((c) => c.logId)]);
    // The file's checkpoints plus the table's own; the same checkpoint bytes from both count once.
    const seen = new Set<string>();
    const checkpoints = [...fromFile, ...(await storeCheckpoints(store, logs))].filter((c) => {
      const k = `${c.logId}\u0000${c.treeSize}\u0000${c.body}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    // Without a markers file, the table's own position markers are checked (ADR 0164).
    if (positions === undefined && store.listPositions) {
      positions = [];
      for await (const p of store.listPositions()) positions.push(p);
    }
    if (options.witnesses !== undefined)
      options = { ...options, witnesses: await withTableNotes(store, logs, options.witnesses) };
    return await verifyLedger(storeSource(store), policy.value, checkpoints, {
      ...options,
      ...(positions ? { positions } : {}),
    });
  } catch (e) {
    // Any failure to read the table (StoreReadError, connection refused, missing table) is "no verdict".
    return err({ code: 'store-read-incomplete', detail: explainStackError(e, settings) });
  } finally {
    close();
  }
}

/** The table's own checkpoint notes with their cosignatures, joined to the files' (also the console's witnesses). */
export async function withTableNotes(
  store: LedgerStore,
  logIds: Iterable<string>,
  w: WitnessInputs,
): Promise<WitnessInputs> {
  if (!keepsNotes(store)) return w;
  const notes = [...w.notes];
  for (const logId of [...logIds].sort())
    for await (const n of store.readNotes(logId)) notes.push(await cosignedNote(store, n));
  return { ...w, notes };
}

/** The witness flags `docket verify` and `docket console` both take, read alike (readWitnessInputs). */
export const WITNESS_FLAGS = flagTable(['witnesses', 'now'], [], ['cosigned']);

/** --now is a UTC date-time; it and --cosigned go with --witnesses. */
export function checkWitnessFlags(values: Readonly<Record<string, unknown>>): void {
  if (typeof values.now === 'string' && !isUtcTime(values.now))
    throw new UsageError('--now is an RFC 3339 UTC date-time (YYYY-MM-DDTHH:MM:SSZ)');
  if (values.witnesses === undefined && (values.now !== undefined || values.cosigned !== undefined))
    throw new UsageError('--now and --cosigned go with --witnesses');
}

const isUtcTime = (s: string): boolean => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(s) && !Number.isNaN(Date.parse(s));

/**
 * The witness policy, the cosigned notes of every --cosigned file (a notes export or a witness state), the clock.
 * Also `docket console --witnesses`, so both commands read the same files alike.
 */
export async function readWitnessInputs(values: Record<string, unknown>): Promise<Result<WitnessInputs, NoVerdict>> {
  const path = values.witnesses as string;
  const bytes = await readBytesOrError(path);
  if (bytes instanceof Error) return err({ code: 'witness-policy-unreadable', detail: `${path}: ${bytes.message}` });
  const files = Array.isArray(values.cosigned)
    ? (values.cosigned as string[])
    : [localPaths().checkpointNotes, localPaths().witnessState].filter((p) => existsSync(p));
  const cosigned: { name: string; bytes: Uint8Array }[] = [];
  for (const f of files) {
    const b = await readBytesOrError(f);
    if (b instanceof Error) return err({ code: 'notes-unreadable', detail: `${f}: ${b.message}` });
    cosigned.push({ name: f, bytes: b });
  }
  const now = typeof values.now === 'string' ? Date.parse(values.now) / 1000 : Math.floor(Date.now() / 1000);
  return readWitnessFiles({ name: path, bytes }, cosigned, now);
}
