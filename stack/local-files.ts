/**
 * Files of the local run under .docket/local/ (gitignored): the entry signing key and the checkpoint key (mode 0600,
 * separate files: docs/adr/0120-separate-entry-and-checkpoint-keys.md), the trust policy that
 * `docket verify` uses with no flags, and the checkpoint export. Created by `docket local start` / `docket keygen`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  generateKeyPair,
  toHex,
  TRUST_POLICY_FORMAT,
  TRUST_POLICY_FORMAT_V3,
  TRUST_POLICY_FORMAT_V5,
  type DraftFeatureAllowance,
  type Ed25519KeyPair,
} from '../core/ledger/index.js';
import { parseSigningKey, signingKeyDocument } from '../adapters/signing-key.js';
import { ensurePrivateDir, writeSecretFile } from '../adapters/secret-file.js';

export const LOCAL_DIR = join('.docket', 'local');
export const localPaths = (cwd: string = process.cwd()) => ({
  dir: join(cwd, LOCAL_DIR),
  signingKey: join(cwd, LOCAL_DIR, 'signing-key.json'),
  /** The checkpoint writer's own key (ADR 0120): the evaluate function is never given this file. */
  checkpointKey: join(cwd, LOCAL_DIR, 'checkpoint-key.json'),
  trustPolicy: join(cwd, LOCAL_DIR, 'trust-policy.json'),
  checkpoints: join(cwd, LOCAL_DIR, 'checkpoints.json'),
  checkpointNotes: join(cwd, LOCAL_DIR, 'checkpoint-notes.json'),
  witnessKey: join(cwd, LOCAL_DIR, 'witness-key.json'),
  witnessState: join(cwd, LOCAL_DIR, 'witness-state.json'),
  witnessPolicy: join(cwd, LOCAL_DIR, 'witness-policy.json'),
  /** The handoff ids `docket handoffs` printed, per route queue, kept between runs (ADR 0460). */
  handoffsSeen: join(cwd, LOCAL_DIR, 'handoffs-seen.json'),
});

/** A new key pair from the OS CSPRNG. */
export function newKeyPair(): Ed25519KeyPair {
  return generateKeyPair((n) => new Uint8Array(randomBytes(n)));
}

/** Writes a key document readable by its owner only; refuses to overwrite unless `force`. */
export function writeSigningKey(path: string, keys: Ed25519KeyPair, force = false): void {
  // The run's own directory is private; a directory named with --out is the caller's and is left as it is.
  if (basename(dirname(path)) === 'local' && basename(dirname(dirname(path))) === '.docket')
    ensurePrivateDir(dirname(path));
  writeSecretFile(path, new TextEncoder().encode(signingKeyDocument(keys)), force);
}

/** The key at `path`, creating it first when absent. */
export function ensureSigningKey(path: string): { keys: Ed25519KeyPair; created: boolean } {
  if (existsSync(path)) return { keys: parseSigningKey(readFileSync(path, 'utf8'), path), created: false };
  const keys = newKeyPair();
  writeSigningKey(path, keys);
  return { keys, created: true };
}

/** A public key to pin: its id and 32 raw bytes (a local key pair, or a KMS key's public half). */
export interface PublicKeyPin {
  readonly keyId: string;
  readonly publicKey: Uint8Array;
}

/**
 * A trust policy pinning one entry key and one checkpoint key for every log from seq 0, open-ended: format
 * docket.trust-policy/2, or /3 permitting exactly `draftFeatures` on every log when the stack enables some (ADR 0222),
 * so its own checkpoint writer vouches for the entries it writes. `permits` (from rememberedPermits, ADR 0462), when
 * given, replaces `draftFeatures`: format /5 with each permit's seq range, or /3 when every permit is from seq 0 on.
 */
export function trustPolicyDocument(o: {
  keys: PublicKeyPin;
  checkpointKey: PublicKeyPin;
  logIds: readonly string[];
  environment: string;
  table: string;
  evaluatorBuilds: readonly string[];
  draftFeatures?: readonly string[];
  permits?: readonly DraftFeatureAllowance[];
}): string {
  const draft = [...new Set(o.draftFeatures ?? [])].sort();
  const logs = [...o.logIds].sort();
  const permits =
    o.permits ?? (draft.length > 0 ? logs.map((logId) => ({ logId, allow: draft, fromSeq: 0, toSeq: null })) : []);
  const ranged = permits.some((p) => (p.fromSeq ?? 0) !== 0 || (p.toSeq ?? null) !== null);
  const from0 = logs.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  if (o.keys.keyId === o.checkpointKey.keyId) throw new Error('the checkpoint key must not be the entry key');
  return `${JSON.stringify(
    {
      format: ranged ? TRUST_POLICY_FORMAT_V5 : permits.length > 0 ? TRUST_POLICY_FORMAT_V3 : TRUST_POLICY_FORMAT,
      logs,
      keys: [
        { keyId: o.keys.keyId, publicKey: toHex(o.keys.publicKey), role: 'entries', validity: from0 },
        {
          keyId: o.checkpointKey.keyId,
          publicKey: toHex(o.checkpointKey.publicKey),
          role: 'checkpoints',
          validity: from0,
        },
      ],
      authorities: [{ environment: o.environment, table: o.table }],
      evaluatorBuilds: [...new Set(o.evaluatorBuilds)].sort(),
      ...(permits.length > 0
        ? {
            draftFeatures: permits.map((p) =>
              ranged
                ? { logId: p.logId, fromSeq: p.fromSeq ?? 0, toSeq: p.toSeq ?? null, allow: [...p.allow] }
                : { logId: p.logId, allow: [...p.allow] },
            ),
          }
        : {}),
    },
    null,
    2,
  )}\n`;
}
