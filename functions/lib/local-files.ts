/**
 * Files of the local run under .docket/local/ (gitignored): the signing key (mode 0600), the trust policy that
 * `docket verify` uses with no flags, and the checkpoint export. Created by `docket local start` / `docket keygen`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { toHex } from '../../core/ledger/bytes.js';
import { generateKeyPair, type Ed25519KeyPair } from '../../core/ledger/signature.js';
import { TRUST_POLICY_FORMAT } from '../../core/ledger/trust-policy.js';
import { parseSigningKey, signingKeyDocument } from './signing-key.js';
import { ensurePrivateDir, writeSecretFile } from './secret-file.js';

export const LOCAL_DIR = join('.docket', 'local');
export const localPaths = (cwd: string = process.cwd()) => ({
  dir: join(cwd, LOCAL_DIR),
  signingKey: join(cwd, LOCAL_DIR, 'signing-key.json'),
  trustPolicy: join(cwd, LOCAL_DIR, 'trust-policy.json'),
  checkpoints: join(cwd, LOCAL_DIR, 'checkpoints.json'),
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

/** A trust policy (docket.trust-policy/1) pinning one key for every log from seq 0, open-ended. */
export function trustPolicyDocument(o: {
  keys: Ed25519KeyPair;
  logIds: readonly string[];
  environment: string;
  table: string;
  evaluatorBuilds: readonly string[];
}): string {
  const logs = [...o.logIds].sort();
  return `${JSON.stringify(
    {
      format: TRUST_POLICY_FORMAT,
      logs,
      keys: [
        {
          keyId: o.keys.keyId,
          publicKey: toHex(o.keys.publicKey),
          validity: logs.map((logId) => ({ logId, fromSeq: 0, toSeq: null })),
        },
      ],
      authorities: [{ environment: o.environment, table: o.table }],
      evaluatorBuilds: [...new Set(o.evaluatorBuilds)].sort(),
    },
    null,
    2,
  )}\n`;
}
