/**
 * Building blocks of the ledger tamper corpus: fixed test keys derived from fixed seeds (never real secrets), fixed
 * times, honest logs built with the ledger's own builders, and the raw signing needed to make dishonest ones.
 */
import { sha256, sha256Hex, toHex, fromHex, utf8Bytes, concatBytes } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import {
  buildCheckpoint,
  CHECKPOINT_FORMAT,
  CHECKPOINT_FORMAT_V1,
  type CheckpointOrigin,
  type UnsignedCheckpoint,
} from '../../core/ledger/checkpoints/checkpoint.js';
import { entryHashOf, entrySigningMessage } from '../../core/ledger/entries/entry.js';
import { ENTRY_FORMAT, type UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { LEDGER_EXPORT_FORMAT, CHECKPOINT_EXPORT_FORMAT } from '../../core/ledger/export/export.js';
import { merkleRoot } from '../../core/ledger/checkpoints/merkle.js';
import {
  keyPairFromSeed,
  signEd25519,
  signerFromKeyPair,
  ENTRY_SIGNATURE_DOMAIN,
  type Ed25519KeyPair,
} from '../../core/ledger/primitives/signature.js';
import type { StoredCheckpoint, StoredEntry } from '../../core/ledger/store/store.js';
import { canonicalDisposition } from '../../core/evaluate/disposition.js';
import type { Disposition } from '../../core/evaluate/types.js';

/** A fixed key from a fixed seed: SHA-256 of a label. */
export const testKey = (label: string): Ed25519KeyPair =>
  keyPairFromSeed(sha256(utf8Bytes(`docket verify corpus key: ${label}`)));

export const K1 = testKey('prod-1');
export const K2 = testKey('prod-2 (rotated in)');
export const KS = testKey('staging');
export const KF = testKey('foreign');
/** The checkpoint writer's key of the docket.trust-policy/2 scenarios (separate custody from K1/K2). */
export const KC = testKey('checkpoint writer');
/** A checkpoint key rotated in after KC. */
export const KC2 = testKey('checkpoint writer 2 (rotated in)');

export const PROD: CheckpointOrigin = { environment: 'prod', table: 'docket-prod-ledger' };
export const STAGING: CheckpointOrigin = { environment: 'staging', table: 'docket-staging-ledger' };
export const BUILD = sha256Hex('docket-evaluator build 0.1.0 (corpus)');
export const OTHER_BUILD = sha256Hex('docket-evaluator build 0.0.9-unreviewed (corpus)');
export const PACK_DIGEST = sha256Hex('corpus pack bytes');

export type Rec = StoredEntry;

const time = (seq: number, minute = 0): string =>
  `2026-12-01T10:${String(minute).padStart(2, '0')}:${String(seq % 60).padStart(2, '0')}Z`;

const DISPOSITION: Disposition = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };

/** An honest unsigned entry for (logId, seq); the kind rotates disposition / evaluation-error / admission-refusal. */
export function unsignedEntry(
  logId: string,
  seq: number,
  prevHash: string | null,
  keys: Ed25519KeyPair,
  over: Record<string, unknown> = {},
  env = 'prod',
): UnsignedEntry {
  const requestId = `${env === 'prod' ? '' : `${env}-`}${logId}-req-${seq}`;
  const common = {
    format: ENTRY_FORMAT,
    logId,
    seq,
    prevHash,
    requestId,
    requestDigest: sha256Hex(`request ${requestId}`),
    correlation: { tenant: 'acme' },
    specVersion: '0.3.0',
    factsDigest: sha256Hex(`facts ${requestId}`),
    evidenceDigest: null,
    supportedExtensions: [],
    workBudget: 100000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD },
    time: time(seq, env === 'prod' ? 0 : 30),
    keyId: keys.keyId,
  };
  const kind = seq % 3;
  const body =
    kind === 0
      ? {
          ...common,
          kind: 'disposition',
          pack: { id: 'triage', version: '1.0.0', digest: PACK_DIGEST },
          work: 40 + seq,
          disposition: DISPOSITION,
          dispositionDigest: sha256Hex(canonicalDisposition(DISPOSITION)),
        }
      : kind === 1
        ? {
            ...common,
            kind: 'evaluation-error',
            pack: { id: 'triage', version: '1.0.0', digest: PACK_DIGEST },
            work: 7,
            error: {
              class: 'malformed-input',
              phase: 'preflight',
              code: 'facts-syntax',
              message: 'facts are not JSON',
            },
          }
        : {
            ...common,
            kind: 'admission-refusal',
            pack: { digest: PACK_DIGEST },
            specVersion: null,
            factsDigest: null,
            workBudget: null,
            work: 0,
            refusal: { code: 'unknown-pack-digest', message: 'no pack is registered under this digest' },
          };
  return { ...body, ...over } as unknown as UnsignedEntry;
}

/** Signs anything entry-shaped without the builder's checks (so dishonest entries can be made), with a domain. */
export function signRaw(
  unsigned: Record<string, unknown>,
  keys: Ed25519KeyPair,
  domain: string = ENTRY_SIGNATURE_DOMAIN,
): string {
  const { signature: _drop, ...rest } = unsigned;
  const message =
    domain === ENTRY_SIGNATURE_DOMAIN
      ? entrySigningMessage(rest as unknown as UnsignedEntry)
      : concatBytes(utf8Bytes(domain), utf8Bytes(canonicalText(rest)));
  return canonicalText({ ...rest, signature: toHex(signEd25519(message, keys.secretKey)) });
}

/** The stored record of a body, filed at (logId, seq), with an honest projection of that body. */
export function recordOf(body: string, logId: string, seq: number): Rec {
  const o = JSON.parse(body) as { requestId: string; kind: string };
  return { logId, seq, body, projection: { requestId: o.requestId, kind: o.kind, entryHash: entryHashOf(body) } };
}

/** An honest, chained log of n entries; `keyAt` picks the signing key per seq, `over` overrides members per seq. */
export function buildLog(
  logId: string,
  n: number,
  keyAt: (seq: number) => Ed25519KeyPair = () => K1,
  over: (seq: number) => Record<string, unknown> = () => ({}),
  env = 'prod',
): Rec[] {
  const out: Rec[] = [];
  let prev: string | null = null;
  for (let seq = 0; seq < n; seq++) {
    const body = signRaw(
      unsignedEntry(logId, seq, prev, keyAt(seq), over(seq), env) as unknown as Record<string, unknown>,
      keyAt(seq),
    );
    out.push(recordOf(body, logId, seq));
    prev = entryHashOf(body);
  }
  return out;
}

/** Appends one honestly chained entry to a log (its seq and prevHash follow the last record). */
export function appendTo(log: Rec[], keys: Ed25519KeyPair, over: Record<string, unknown> = {}): Rec {
  const last = log[log.length - 1] as Rec;
  const seq = last.seq + 1;
  const body = signRaw(
    unsignedEntry(last.logId, seq, entryHashOf(last.body), keys, over) as unknown as Record<string, unknown>,
    keys,
  );
  const rec = recordOf(body, last.logId, seq);
  log.push(rec);
  return rec;
}

export const rootOf = (recs: readonly Rec[], size: number): string =>
  toHex(merkleRoot(recs.slice(0, size).map((r) => fromHex(entryHashOf(r.body)))));

/**
 * A docket.checkpoint/1 of the first `size` records, signed by `keys` (honest unless `over` says otherwise). The
 * frozen scenarios written before format /2 keep these bytes.
 */
export function checkpointOf(
  recs: readonly Rec[],
  logId: string,
  size: number,
  keys: Ed25519KeyPair = K1,
  origin: CheckpointOrigin = PROD,
  over: Partial<UnsignedCheckpoint> = {},
): StoredCheckpoint {
  const unsigned: UnsignedCheckpoint = {
    format: CHECKPOINT_FORMAT_V1,
    logId,
    treeSize: size,
    rootHash: rootOf(recs, size),
    chainHead: size === 0 ? null : entryHashOf((recs[size - 1] as Rec).body),
    keyId: keys.keyId,
    origin,
    time: `2026-12-01T11:00:${String(size % 60).padStart(2, '0')}Z`,
    ...over,
  };
  const { body } = buildCheckpoint(unsigned, signerFromKeyPair(keys));
  return { logId, treeSize: size, body };
}

/** A docket.checkpoint/2 (its writer verified the entries it covers) of the first `size` records, by `keys`. */
export function checkpointV2Of(
  recs: readonly Rec[],
  logId: string,
  size: number,
  keys: Ed25519KeyPair = KC,
  origin: CheckpointOrigin = PROD,
): StoredCheckpoint {
  return checkpointOf(recs, logId, size, keys, origin, { format: CHECKPOINT_FORMAT, entriesVerified: true });
}

export interface PolicyKey {
  readonly keys: Ed25519KeyPair;
  readonly validity: readonly { logId: string; fromSeq: number; toSeq: number | null }[];
  /** Set on every key of a docket.trust-policy/2; absent on every key of a /1. */
  readonly role?: 'entries' | 'checkpoints';
}

export function policyText(
  logs: readonly string[],
  keys: readonly PolicyKey[],
  builds: readonly string[] = [BUILD],
  authorities = [PROD],
): string {
  const v2 = keys.some((k) => k.role !== undefined);
  return `${JSON.stringify(
    {
      format: v2 ? 'docket.trust-policy/2' : 'docket.trust-policy/1',
      logs,
      keys: keys.map((k) => ({
        keyId: k.keys.keyId,
        publicKey: toHex(k.keys.publicKey),
        ...(v2 ? { role: k.role } : {}),
        validity: k.validity,
      })),
      authorities,
      evaluatorBuilds: builds,
    },
    null,
    2,
  )}\n`;
}

export function exportText(recs: readonly Rec[], origin: CheckpointOrigin | null = PROD): string {
  const lines = [canonicalText({ format: LEDGER_EXPORT_FORMAT, origin })];
  for (const r of recs)
    lines.push(canonicalText({ body: r.body, logId: r.logId, projection: { ...r.projection }, seq: r.seq }));
  return `${lines.join('\n')}\n`;
}

export function checkpointsText(cps: readonly StoredCheckpoint[]): string {
  return `${canonicalText({ checkpoints: cps.map((c) => ({ body: c.body, logId: c.logId, treeSize: c.treeSize })), format: CHECKPOINT_EXPORT_FORMAT })}\n`;
}

/** Re-files a body edit: the new body replaces the record's, and (like a careful attacker) the projection follows it. */
export function withBody(r: Rec, body: string, fixProjection = true): Rec {
  return fixProjection ? recordOf(body, r.logId, r.seq) : { ...r, body };
}

/** The parsed body of a record, for edits. */
export const bodyOf = (r: Rec): Record<string, unknown> => JSON.parse(r.body) as Record<string, unknown>;
