/**
 * The evaluator's Ed25519 signing key. In the cloud it is a Secrets Manager secret (SIGNING_SECRET_ARN), read once
 * at cold start; on the local stack it is a file under .docket/local/ (DOCKET_SIGNING_KEY_FILE) written by
 * `docket keygen`. Both hold the same JSON document (docs/adr/0075-signing-key-document.md):
 *   {"format":"docket.signing-key/1","keyId":"ed25519:…","seed":"<64 hex>","publicKey":"<64 hex>"}
 * The seed is never logged: errors name the source, never the content.
 */
import { readFile } from 'node:fs/promises';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  fromHex,
  isHex,
  keyPairFromSeed,
  signerFromKeyPair,
  toHex,
  type Ed25519KeyPair,
  type Signer,
} from '../core/ledger/index.js';

export const SIGNING_KEY_FORMAT = 'docket.signing-key/1';

export class SigningKeyError extends Error {
  readonly code = 'signing-key-unavailable';
}

/** The key document for a key pair (what `docket keygen` writes). */
export function signingKeyDocument(keys: Ed25519KeyPair): string {
  return `${JSON.stringify({ format: SIGNING_KEY_FORMAT, keyId: keys.keyId, seed: toHex(keys.secretKey), publicKey: toHex(keys.publicKey) }, null, 2)}\n`;
}

/** Reads and checks a key document; the public key and key id must derive from the seed. */
export function parseSigningKey(text: string, source: string): Ed25519KeyPair {
  let doc: { format?: unknown; keyId?: unknown; seed?: unknown; publicKey?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    throw new SigningKeyError(`${source} is not a signing key document`);
  }
  if (doc?.format !== SIGNING_KEY_FORMAT || !isHex(doc.seed, 32))
    throw new SigningKeyError(`${source} is not a ${SIGNING_KEY_FORMAT} document`);
  const keys = keyPairFromSeed(fromHex(doc.seed));
  if (doc.publicKey !== toHex(keys.publicKey) || doc.keyId !== keys.keyId)
    throw new SigningKeyError(`${source}: the public key or key id does not derive from the seed`);
  return keys;
}

/** A signer from a key file (docket.signing-key/1); `what` names the key in errors ("signing", "checkpoint"). */
export async function signerFromKeyFile(file: string, what: string): Promise<Signer> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new SigningKeyError(
      `cannot read the ${what} key file ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  return signerFromKeyPair(parseSigningKey(text, file));
}

export async function loadSigningKey(env: NodeJS.ProcessEnv, secrets?: () => SecretsManagerClient): Promise<Signer> {
  const file = env.DOCKET_SIGNING_KEY_FILE;
  if (file) return signerFromKeyFile(file, 'signing');
  const arn = env.SIGNING_SECRET_ARN;
  if (!arn) throw new SigningKeyError('neither DOCKET_SIGNING_KEY_FILE nor SIGNING_SECRET_ARN is set');
  const client = secrets ? secrets() : new SecretsManagerClient({});
  const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (typeof out.SecretString !== 'string') throw new SigningKeyError(`secret ${arn} holds no string value`);
  return signerFromKeyPair(parseSigningKey(out.SecretString, `secret ${arn}`));
}
