/**
 * `docket witness [run] | keygen | serve` (docs/verify.md "Witnesses"; USAGE below): the witness an auditor or any
 * third party runs. A run sends each log's newest checkpoint note through the tlog-witness add-checkpoint exchange, to
 * its own key and state or (--url) to any C2SP witness; a refusal is printed as the log's finding, exit 1.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { toHex } from '../../core/ledger/index.js';
import { parseCheckpointOrigin, readCheckpointNote } from '../../core/ledger/index.js';
import { entryHashOf } from '../../core/ledger/index.js';
import { readLedgerExport } from '../../core/ledger/index.js';
import { consistencyProof } from '../../core/ledger/index.js';
import { keepsNotes } from '../../core/ledger/index.js';
import { exportNotes, notesExportText, readNotesExport } from '../../core/ledger/index.js';
import type { StoredNote } from '../../core/ledger/index.js';
import { encodeBase64, signatureLine, type NoteSignature } from '../../core/ledger/index.js';
import { isAllowedAuthority, readTrustPolicy, type TrustPolicy } from '../../core/ledger/index.js';
import type { AddCheckpointResponse } from '../../core/ledger/index.js';
import { WitnessService } from '../../core/ledger/index.js';
import { runWitness, type WitnessRunResult } from '../../core/ledger/index.js';
import { witnessPolicyDocument, witnessVkey } from '../../core/ledger/index.js';
import { fromHex } from '../../core/ledger/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { localPaths } from '../../stack/local-files.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { EXIT, flagTable, parseCommandArgs, reportUsage, fail } from '../args.js';
import type { CliIo } from '../io.js';
import { postAddCheckpoint, witnessServer } from '../witness/http.js';
import { loadWitnessState, saveWitnessState } from '../witness/state-file.js';
import { newWitnessKey, parseWitnessKey, writeWitnessKey } from '../witness/witness-key-file.js';

const USAGE = `docket witness keygen --name <witness-name> [--out <witness-key.json>] [--force] [--policy-out <witness-policy.json>] [--max-age <seconds>]
docket witness [run] [--key <witness-key.json>] [--state <witness-state.json>] [--policy <trust-policy.json>]
               [--url <http://…/add-checkpoint>] [--export <ledger.jsonl> --notes <checkpoint-notes.json>] [--notes-out <file>]
docket witness serve [--key …] [--state …] [--policy …] [--host 127.0.0.1] [--port 0]
  Defaults: .docket/local/{witness-key,witness-state,trust-policy,checkpoint-notes}.json. Without --export, reads the
  live ledger table (stack options below). One JSON line per log on stdout; exit 1 when the witness refused any.
${SETTINGS_HELP}`;

const FLAGS = {
  ...SETTING_FLAGS,
  ...flagTable(['key', 'state', 'policy', 'url', 'export', 'notes', 'notes-out']),
  ...flagTable(['name', 'out', 'policy-out', 'max-age'], ['force']), // keygen
  ...flagTable(['host', 'port']), // serve
};

type Values = Record<string, string | boolean | string[] | undefined>;
const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

export async function run(argv: string[], io: CliIo): Promise<number> {
  const sub = argv[0] === 'keygen' || argv[0] === 'serve' || argv[0] === 'run' ? argv[0] : 'run';
  const rest = argv[0] === sub ? argv.slice(1) : argv;
  const { values } = parseCommandArgs(rest, FLAGS, USAGE);
  try {
    if (sub === 'keygen') return keygen(values, io);
    if (sub === 'serve') return await serve(values, io);
    return await runOnce(values, io);
  } catch (e) {
    return fail(io, 'witness', (e as Error).message, EXIT.FAILED);
  }
}

function keygen(values: Values, io: CliIo): number {
  const name = str(values, 'name');
  if (name === undefined) return reportUsage(io, 'witness keygen', '--name is required', USAGE);
  const maxAge = str(values, 'max-age') ?? '86400';
  if (!/^[1-9][0-9]{0,15}$/.test(maxAge))
    return reportUsage(io, 'witness keygen', '--max-age is a positive number of seconds', USAGE);
  const out = str(values, 'out') ?? localPaths().witnessKey;
  const key = newWitnessKey(name);
  writeWitnessKey(out, key, values.force === true);
  // ADR 0302: also the witness's C2SP vkey (type 0x04), what a stock verifier or a witness policy /2 lists.
  io.stdout(`${JSON.stringify({ name, publicKey: toHex(key.publicKey), vkey: witnessVkey(key), keyFile: out })}\n`);
  const policyOut = str(values, 'policy-out');
  if (policyOut !== undefined) {
    writeFileSync(
      policyOut,
      witnessPolicyDocument({
        quorum: 1,
        maxAgeSeconds: Number(maxAge),
        witnesses: [{ name, publicKey: key.publicKey }],
      }),
    );
    io.stderr(`witness policy written to ${policyOut}\n`);
  }
  return EXIT.OK;
}

function loadPolicy(values: Values): TrustPolicy {
  const path = str(values, 'policy') ?? localPaths().trustPolicy;
  const p = readTrustPolicy(new Uint8Array(readFileSync(path)));
  if (!p.ok) throw new Error(`trust policy ${path}: ${p.error.detail}`);
  return p.value;
}

/** The origins this witness follows: Docket origins of a log and an authority the trust policy lists. */
const knowsOrigin = (policy: TrustPolicy) => (origin: string) => {
  const o = parseCheckpointOrigin(origin);
  return o !== null && policy.logs.includes(o.logId) && isAllowedAuthority(policy, o);
};

function ownWitness(values: Values, policy: TrustPolicy): WitnessService {
  const statePath = str(values, 'state') ?? localPaths().witnessState;
  const keyPath = str(values, 'key') ?? localPaths().witnessKey;
  return new WitnessService(
    loadWitnessState(statePath),
    { policy, knowsOrigin: knowsOrigin(policy), key: parseWitnessKey(readFileSync(keyPath, 'utf8'), keyPath) },
    () => Math.floor(Date.now() / 1000),
    (s) => saveWitnessState(statePath, s),
  );
}

async function serve(values: Values, io: CliIo): Promise<number> {
  const policy = loadPolicy(values);
  const service = ownWitness(values, policy);
  const host = str(values, 'host') ?? '127.0.0.1';
  const port = Number(str(values, 'port') ?? '0');
  const server = witnessServer(service, (e) => io.stderr(`docket witness serve: ${(e as Error).message}\n`));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const addr = server.address();
  const url = typeof addr === 'object' && addr !== null ? `http://${host}:${addr.port}/add-checkpoint` : String(addr);
  io.stdout(`${JSON.stringify({ url })}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return EXIT.OK;
}

/** A ledger the run reads: the newest note of each log, and its leaf hashes for consistency proofs. */
interface LedgerView {
  readonly logIds: readonly string[];
  newestNote(logId: string): Promise<StoredNote | null>;
  leaves(logId: string, upTo: number): Promise<Uint8Array[] | null>;
  /** Stores the cosignature lines of a note and re-exports the notes. */
  keep(logId: string, treeSize: number, lines: readonly NoteSignature[]): Promise<void>;
  finish(): Promise<void>;
}

async function liveView(values: Values, policy: TrustPolicy, io: CliIo): Promise<LedgerView & { close(): void }> {
  const settings = resolveSettings(values as never, process.env);
  const stack = openStack(settings);
  const store = stack.store;
  if (!keepsNotes(store)) throw new Error('this store keeps no checkpoint notes');
  const logIds = [...new Set([...policy.logs, ...(await store.listLogs())])].sort();
  const out = str(values, 'notes-out') ?? localPaths().checkpointNotes;
  const unstored: { logId: string; treeSize: number; line: string }[] = [];
  return {
    logIds,
    async newestNote(logId) {
      let newest: StoredNote | null = null;
      for await (const n of store.readNotes(logId)) if (newest === null || n.treeSize > newest.treeSize) newest = n;
      return newest;
    },
    async leaves(logId, upTo) {
      const out: Uint8Array[] = [];
      for await (const e of store.readEntries(logId, 0, upTo - 1)) out.push(fromHex(entryHashOf(e.body)));
      return out.length === upTo ? out : null;
    },
    async keep(logId, treeSize, lines) {
      for (const s of lines) {
        const line = signatureLine(s);
        try {
          await store.putCosignatureIfAbsent({
            logId,
            treeSize,
            time: cosignatureTimeOf(s),
            keyId: toHex(s.keyId),
            line,
          });
        } catch (e) {
          // In AWS no witness may write the table (ADR 0133): the cosignature lives in the notes export and the state.
          io.stderr(
            `docket witness: cosignature of ${logId}@${treeSize} not stored in the table: ${(e as Error).message}\n`,
          );
          unstored.push({ logId, treeSize, line });
        }
      }
    },
    async finish() {
      const exported = readNotesExport(new TextEncoder().encode(await exportNotes(store, logIds)));
      if (!exported.ok) throw new Error(`notes export: ${exported.error.detail}`);
      const notes = exported.value.map((n) => ({
        ...n,
        note:
          n.note +
          unstored
            .filter((u) => u.logId === n.logId && u.treeSize === n.treeSize)
            .map((u) => u.line)
            .join(''),
      }));
      writeFileSync(out, notesExportText(notes));
      io.stderr(`checkpoint notes (with cosignatures) written to ${out}\n`);
    },
    close: () => stack.close(),
  };
}

function fileView(values: Values, io: CliIo): LedgerView {
  const exportPath = str(values, 'export') as string;
  const notesPath = str(values, 'notes');
  if (notesPath === undefined) throw new Error('--export needs --notes <checkpoint-notes.json>');
  const exp = readLedgerExport(new Uint8Array(readFileSync(exportPath)));
  if (!exp.ok) throw new Error(`${exportPath} line ${exp.error.line}: ${exp.error.detail}`);
  const notes = readNotesExport(new Uint8Array(readFileSync(notesPath)));
  if (!notes.ok) throw new Error(`${notesPath}: ${notes.error.detail}`);
  const list = notes.value.map((n) => ({ ...n }));
  const logIds = [...new Set([...exp.value.entries.map((e) => e.logId), ...list.map((n) => n.logId)])].sort();
  const out = str(values, 'notes-out') ?? notesPath;
  return {
    logIds,
    newestNote: async (logId) =>
      list
        .filter((n) => n.logId === logId)
        .reduce<StoredNote | null>((m, n) => (m === null || n.treeSize > m.treeSize ? n : m), null),
    async leaves(logId, upTo) {
      const mine = exp.value.entries.filter((e) => e.logId === logId).slice(0, upTo);
      return mine.length === upTo ? mine.map((e) => fromHex(entryHashOf(e.body))) : null;
    },
    async keep(logId, treeSize, lines) {
      const n = list.find((x) => x.logId === logId && x.treeSize === treeSize);
      if (n !== undefined) n.note += lines.map(signatureLine).join('');
    },
    async finish() {
      const tmp = `${out}.tmp`;
      writeFileSync(tmp, notesExportText(list));
      renameSync(tmp, out);
      io.stderr(`checkpoint notes (with cosignatures) written to ${out}\n`);
    },
  };
}

async function runOnce(values: Values, io: CliIo): Promise<number> {
  const policy = loadPolicy(values);
  const url = str(values, 'url');
  const own = url === undefined ? ownWitness(values, policy) : null;
  const send = (body: string): Promise<AddCheckpointResponse> =>
    own !== null ? own.addCheckpoint(body).then((o) => o.response) : postAddCheckpoint(url as string, body);
  let view: LedgerView & { close?: () => void };
  try {
    view = str(values, 'export') !== undefined ? fileView(values, io) : await liveView(values, policy, io);
  } catch (e) {
    const settings = resolveSettings(values as never, process.env);
    throw new Error(str(values, 'export') !== undefined ? (e as Error).message : explainStackError(e, settings), {
      cause: e,
    });
  }
  let refusedBefore = false;
  try {
    const logs = [];
    for (const logId of view.logIds) {
      const n = await view.newestNote(logId);
      if (n === null) {
        // A log the witness has cosigned before but that now shows no checkpoint note at all was rolled back.
        const seen = [...(own?.current().values() ?? [])].find((w) => parseCheckpointOrigin(w.origin)?.logId === logId);
        if (seen !== undefined) refusedBefore = true;
        io.stdout(
          `${JSON.stringify(seen === undefined ? { logId, outcome: 'no-checkpoint-note' } : { logId, treeSize: 0, outcome: 'refused', finding: 'rollback', witnessSize: seen.treeSize })}\n`,
        );
        continue;
      }
      const cn = readCheckpointNote(n.note);
      if (!cn.ok) {
        io.stdout(
          `${JSON.stringify({ logId, treeSize: n.treeSize, outcome: 'refused', finding: 'request-malformed' })}\n`,
        );
        continue;
      }
      logs.push({ logId, origin: cn.value.body.origin, treeSize: cn.value.body.treeSize, note: n.note });
    }
    const results = await runWitness({
      logs,
      oldSizeOf: (origin) => own?.current().get(origin)?.treeSize ?? 0,
      proofFor: async (logId, m, size) => {
        const leaves = await view.leaves(logId, size);
        return leaves === null ? null : consistencyProof(m, leaves);
      },
      send,
    });
    let refused = refusedBefore;
    for (const r of results) {
      if (r.outcome === 'cosigned') await view.keep(r.logId, r.treeSize, r.signatures);
      else refused = true;
      io.stdout(`${JSON.stringify(report(r))}\n`);
    }
    await view.finish();
    return refused ? EXIT.FAILED : EXIT.OK;
  } finally {
    view.close?.();
  }
}

/** The timestamp inside a cosignature/v1 signature (0 for another kind of line, which sorts first). */
const cosignatureTimeOf = (s: NoteSignature): number =>
  s.signature.length === 72 ? Number(new DataView(s.signature.buffer, s.signature.byteOffset, 8).getBigUint64(0)) : 0;

function report(r: WitnessRunResult): Record<string, unknown> {
  if (r.outcome === 'cosigned')
    return {
      logId: r.logId,
      treeSize: r.treeSize,
      outcome: 'cosigned',
      cosignatures: r.signatures.map((s) => ({
        name: s.name,
        keyId: toHex(s.keyId),
        signature: encodeBase64(s.signature),
      })),
    };
  return {
    logId: r.logId,
    treeSize: r.treeSize,
    outcome: 'refused',
    finding: r.refusal,
    status: r.status,
    ...(r.witnessSize === null ? {} : { witnessSize: r.witnessSize }),
  };
}
