/** Shared test fixtures: deterministic keys (seeds are fixed bytes, never real secrets) and sample entries. */
import { refusalEntryBody } from './refusal-entry.js';
import { fromHex, sha256Hex, toHex } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import type { CheckpointOrigin } from '../../core/ledger/checkpoints/checkpoint.js';
import { MerkleFrontier } from '../../core/ledger/checkpoints/merkle.js';
import { entryHashOf, entrySigningMessage } from '../../core/ledger/entries/entry.js';
import { LEDGER_EXPORT_FORMAT } from '../../core/ledger/export/export.js';
import type { LedgerStore } from '../../core/ledger/store/store.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { ENTRY_FORMAT, type SignedEntry, type UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import {
  keyPairFromSeed,
  signerFromKeyPair,
  verifyEd25519,
  type Ed25519KeyPair,
  type SignatureBackend,
} from '../../core/ledger/primitives/signature.js';

export const seed = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);
export const KEYS: Ed25519KeyPair = keyPairFromSeed(seed(7));
export const OTHER_KEYS: Ed25519KeyPair = keyPairFromSeed(seed(9));
export const SIGNER = signerFromKeyPair(KEYS);

export const BUILD_DIGEST = sha256Hex('docket-evaluator build 0.1.0');
export const PACK_DIGEST = sha256Hex('pack bytes');

export function dispositionEntry(over: Partial<Record<string, unknown>> = {}): UnsignedEntry {
  const disposition = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };
  return {
    format: ENTRY_FORMAT,
    kind: 'disposition',
    logId: 'log-0',
    seq: 0,
    prevHash: null,
    requestId: 'req-1',
    requestDigest: sha256Hex('request req-1'),
    correlation: { tenant: 'acme' },
    pack: { id: 'triage', version: '1.0.0', digest: PACK_DIGEST },
    specVersion: '0.3.0',
    factsDigest: sha256Hex('{}'),
    evidenceDigest: null,
    supportedExtensions: [],
    workBudget: 100000,
    work: 42,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    disposition,
    dispositionDigest: sha256Hex(
      JSON.stringify({ handoff: { state: 'none' }, kind: 'outcome', outcomeId: 'approve', reasons: [] }),
    ),
    time: '2026-12-02T13:45:00Z',
    keyId: KEYS.keyId,
    ...over,
  } as UnsignedEntry;
}

export function refusalEntry(over: Partial<Record<string, unknown>> = {}): UnsignedEntry {
  return {
    ...refusalEntryBody({
      slot: { logId: 'log-0', seq: 0, prevHash: null },
      requestId: 'req-2',
      requestDigest: sha256Hex('request req-2'),
      packDigest: PACK_DIGEST,
      evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
      time: '2026-12-02T13:45:00.123Z',
      keyId: KEYS.keyId,
      refusal: { code: 'unknown-pack-digest', message: 'no pack is registered under this digest' },
    }),
    ...over,
  } as UnsignedEntry;
}

export function errorEntry(over: Partial<Record<string, unknown>> = {}): UnsignedEntry {
  const { refusal: _refusal, ...base } = refusalEntry() as unknown as Record<string, unknown>;
  return {
    ...base,
    kind: 'evaluation-error',
    requestId: 'req-3',
    pack: { id: 'triage', version: '1.0.0', digest: PACK_DIGEST },
    specVersion: '0.3.0',
    factsDigest: sha256Hex('{"a":'),
    workBudget: 100000,
    work: 0,
    error: { class: 'malformed-input', phase: 'preflight', code: 'facts-syntax', message: 'facts are not JSON' },
    ...over,
  } as unknown as UnsignedEntry;
}

/** The checkpoint key of the fixtures' v2 policy (separate from the entry key KEYS). */
export const CHECKPOINT_KEYS: Ed25519KeyPair = keyPairFromSeed(seed(11));
export const CHECKPOINT_SIGNER = signerFromKeyPair(CHECKPOINT_KEYS);

/** The text of a docket.trust-policy/3: policyV2's keys plus the per-log draft feature allow-lists. */
export function policyV3Text(
  draftFeatures: readonly { logId: string; allow: readonly string[] }[],
  logs: readonly string[] = ['log-a', 'log-b', 'log-empty'],
): string {
  const from0 = logs.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  return JSON.stringify({
    format: 'docket.trust-policy/3',
    logs,
    keys: [
      { keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), role: 'entries', validity: from0 },
      {
        keyId: CHECKPOINT_KEYS.keyId,
        publicKey: toHex(CHECKPOINT_KEYS.publicKey),
        role: 'checkpoints',
        validity: from0,
      },
    ],
    authorities: [{ environment: 'test', table: 'docket-ledger' }],
    evaluatorBuilds: [BUILD_DIGEST],
    draftFeatures,
  });
}

export function policyV3(draftFeatures: readonly { logId: string; allow: readonly string[] }[]): TrustPolicy {
  const r = readTrustPolicy(new TextEncoder().encode(policyV3Text(draftFeatures)));
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

/** A docket.trust-policy/2: KEYS signs entries, CHECKPOINT_KEYS checkpoints, of every log from seq 0 on. */
export function policyV2(
  logs: readonly string[] = ['log-a', 'log-b', 'log-empty'],
  authorities = [{ environment: 'test', table: 'docket-ledger' }],
): TrustPolicy {
  const from0 = logs.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  const r = readTrustPolicy(
    new TextEncoder().encode(
      JSON.stringify({
        format: 'docket.trust-policy/2',
        logs,
        keys: [
          { keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), role: 'entries', validity: from0 },
          {
            keyId: CHECKPOINT_KEYS.keyId,
            publicKey: toHex(CHECKPOINT_KEYS.publicKey),
            role: 'checkpoints',
            validity: from0,
          },
        ],
        authorities,
        evaluatorBuilds: [BUILD_DIGEST],
      }),
    ),
  );
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

/** Strict signature check of an entry, its signing message re-serialized from the entry (what the writer signed). */
export const verifyEntrySignature = (
  entry: SignedEntry,
  publicKey: Uint8Array,
  backend: SignatureBackend = 'node',
): boolean => verifyEd25519(fromHex(entry.signature), entrySigningMessage(entry), publicKey, backend);

/** What a checkpoint states about a log prefix, plus the frontier to extend it later without rehashing. */
export interface LogTreeState {
  readonly logId: string;
  readonly treeSize: number;
  readonly rootHash: string;
  readonly chainHead: string | null;
  readonly frontier: MerkleFrontier;
}

/**
 * The tree of a log's entries [from.treeSize, upTo), computed independently of the checkpoint writer: the entry
 * hash is recomputed from the stored bytes, never taken from the projection. A gap in the sequence throws.
 */
export async function computeLogTree(
  store: LedgerStore,
  logId: string,
  options: { readonly from?: LogTreeState; readonly upTo?: number } = {},
): Promise<LogTreeState> {
  const frontier = options.from?.frontier.clone() ?? new MerkleFrontier();
  let chainHead = options.from?.chainHead ?? null;
  let next = frontier.size;
  if (options.upTo !== undefined && options.upTo < next) throw new RangeError('upTo is below the starting tree size');
  if (options.upTo === undefined || options.upTo > next) {
    for await (const e of store.readEntries(logId, next, options.upTo === undefined ? undefined : options.upTo - 1)) {
      if (e.seq !== next) throw new RangeError(`log ${logId} has no entry at seq ${next}`);
      const h = entryHashOf(e.body);
      frontier.append(fromHex(h));
      chainHead = h;
      next += 1;
    }
  }
  if (options.upTo !== undefined && next !== options.upTo)
    throw new RangeError(`log ${logId} ends at ${next}, before ${options.upTo}`);
  return { logId, treeSize: next, rootHash: toHex(frontier.root()), chainHead, frontier };
}

/** Every line of a docket.ledger-export/1 file of the store, header first (core/ledger/export/export.ts). */
export async function* ledgerExportLines(store: LedgerStore, origin: CheckpointOrigin | null): AsyncIterable<string> {
  yield `${canonicalText({ format: LEDGER_EXPORT_FORMAT, origin })}\n`;
  for (const logId of [...(await store.listLogs())].sort()) {
    for await (const e of store.readEntries(logId, 0)) {
      yield `${canonicalText({ body: e.body, logId: e.logId, projection: { ...e.projection }, seq: e.seq })}\n`;
    }
  }
}
