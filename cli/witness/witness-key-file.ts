/**
 * The witness's own key, format "docket.witness-key/1" (schema/witness-key.schema.json), written with mode 0600:
 *   { "format": "docket.witness-key/1", "name": "<key name>", "seed": "<64 hex>", "publicKey": "<64 hex>" }
 * The name is the cosignature key name (a schema-less URL such as `auditor.example/witness` is recommended by
 * C2SP signed-note). The seed never goes to stdout or a log.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fromHex, isHex, toHex } from '../../core/ledger/index.js';
import type { WitnessKey } from '../../core/ledger/index.js';
import { generateKeyPair, keyPairFromSeed } from '../../core/ledger/index.js';
import { isValidKeyName } from '../../core/ledger/index.js';

export const WITNESS_KEY_FORMAT = 'docket.witness-key/1';

export class WitnessKeyError extends Error {
  readonly code = 'witness-key-unavailable';
}

export function newWitnessKey(name: string): WitnessKey {
  if (!isValidKeyName(name)) throw new WitnessKeyError('a witness name is non-empty, without spaces or "+"');
  const kp = generateKeyPair((n) => new Uint8Array(randomBytes(n)));
  return { name, publicKey: kp.publicKey, secretKey: kp.secretKey };
}

export function writeWitnessKey(path: string, key: WitnessKey, force = false): void {
  if (existsSync(path) && !force)
    throw new WitnessKeyError(`${path} exists; refusing to overwrite a witness key (use --force)`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const doc = {
    format: WITNESS_KEY_FORMAT,
    name: key.name,
    seed: toHex(key.secretKey),
    publicKey: toHex(key.publicKey),
  };
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function parseWitnessKey(text: string, source: string): WitnessKey {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new WitnessKeyError(`${source} is not a witness key document`);
  }
  if (
    doc === null ||
    typeof doc !== 'object' ||
    Object.keys(doc).sort().join(',') !== 'format,name,publicKey,seed' ||
    doc.format !== WITNESS_KEY_FORMAT ||
    !isHex(doc.seed, 32) ||
    typeof doc.name !== 'string' ||
    !isValidKeyName(doc.name)
  )
    throw new WitnessKeyError(`${source} is not a ${WITNESS_KEY_FORMAT} document`);
  const kp = keyPairFromSeed(fromHex(doc.seed));
  if (doc.publicKey !== toHex(kp.publicKey))
    throw new WitnessKeyError(`${source}: the public key does not derive from the seed`);
  const key = { name: doc.name, publicKey: kp.publicKey, secretKey: kp.secretKey };
  // Printing the key shows the public half only.
  const visible = () => ({ name: key.name, publicKey: toHex(key.publicKey) });
  Object.defineProperty(key, 'toJSON', { value: visible, enumerable: false });
  Object.defineProperty(key, Symbol.for('nodejs.util.inspect.custom'), { value: visible, enumerable: false });
  return key;
}
