import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KMSClient } from '@aws-sdk/client-kms';
import { kmsCheckpointSigner, KmsSignerError } from '../../adapters/kms-checkpoint-signer.js';
import { ed25519FromSpki } from '../../core/ledger/index.js';
import { fromHex, toHex } from '../../core/ledger/primitives/bytes.js';
import {
  checkpointSigningMessage,
  parseCheckpoint,
  verifyCheckpointSignature,
} from '../../core/ledger/checkpoints/checkpoint.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyIdOf } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { storeCheckpoints, storeSource, verifyLedger } from '../../core/ledger/verify/index.js';
import { loadCheckpointSigner } from '../../adapters/checkpoint-key.js';
import { BUILD_DIGEST, KEYS } from '../ledger/fixtures.js';
import { startKmsWireServer, type KmsWireServer } from './kms-wire-server.js';

let kms: KmsWireServer;
let client: KMSClient;
beforeAll(async () => {
  kms = await startKmsWireServer();
  client = new KMSClient({
    endpoint: kms.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client?.destroy();
  await kms?.close();
});

const ORIGIN = { environment: 'prod', table: 'docket-prod-ledger' };

describe('the KMS checkpoint signer, over the KMS JSON protocol', () => {
  it('reads the Ed25519 public key from the DER SPKI and names it by the key id the trust policy pins', async () => {
    kms.mode = 'honest';
    const signer = await kmsCheckpointSigner(client, kms.keyId);
    const raw = ed25519FromSpki(kms.spki) as Uint8Array;
    expect(toHex(signer.publicKey)).toBe(toHex(raw));
    expect(signer.keyId).toBe(keyIdOf(raw));
    expect(kms.calls.at(-1)).toEqual({ target: 'TrentService.GetPublicKey', body: { KeyId: kms.keyId } });
  });

  it('signs the checkpoint message as pure Ed25519 (RAW, ED25519_SHA_512), verifiable like any checkpoint', async () => {
    kms.mode = 'honest';
    const signer = await kmsCheckpointSigner(client, kms.keyId);
    const store = new MemoryLedgerStore();
    const policyText = JSON.stringify({
      format: 'docket.trust-policy/2',
      logs: ['log-a'],
      keys: [
        {
          keyId: KEYS.keyId,
          publicKey: toHex(KEYS.publicKey),
          role: 'entries',
          validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }],
        },
        {
          keyId: signer.keyId,
          publicKey: toHex(signer.publicKey),
          role: 'checkpoints',
          validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }],
        },
      ],
      authorities: [ORIGIN],
      evaluatorBuilds: [BUILD_DIGEST],
    });
    const policy = readTrustPolicy(new TextEncoder().encode(policyText));
    if (!policy.ok) throw new Error(policy.error.detail);
    const w = await checkpointLog(store, 'log-a', {
      signer,
      policy: policy.value,
      origin: ORIGIN,
      time: '2026-12-03T09:00:00Z',
    });
    if (w.status === 'refused') throw new Error(JSON.stringify(w.findings));
    const cp = parseCheckpoint(w.stored.body);
    if (!cp.ok) throw new Error(cp.error.detail);
    expect(verifyCheckpointSignature(cp.value, signer.publicKey)).toBe(true);
    const sign = kms.calls.at(-1) as { target: string; body: Record<string, unknown> };
    expect(sign.target).toBe('TrentService.Sign');
    expect(sign.body).toMatchObject({ KeyId: kms.keyId, MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' });
    expect(toHex(new Uint8Array(Buffer.from(String(sign.body.Message), 'base64')))).toBe(
      toHex(checkpointSigningMessage(cp.value)),
    );
    // verify takes it as an anchor of the empty log.
    const v = await verifyLedger(storeSource(store), policy.value, await storeCheckpoints(store, ['log-a']));
    expect(v.ok && v.value.findings).toEqual([]);
  });

  it('refuses a signature KMS returns that does not verify under the key it announced', async () => {
    kms.mode = 'honest';
    const signer = await kmsCheckpointSigner(client, kms.keyId);
    kms.mode = 'wrong-key';
    await expect(signer.sign(new TextEncoder().encode('checkpoint'))).rejects.toBeInstanceOf(KmsSignerError);
    kms.mode = 'honest';
    expect((await signer.sign(new TextEncoder().encode('checkpoint'))).length).toBe(64);
  });

  it('refuses a key that is not an Ed25519 signing key, an unknown key and a message over KMS’s RAW limit', async () => {
    kms.mode = 'p256-key';
    await expect(kmsCheckpointSigner(client, kms.keyId)).rejects.toThrow(/ECC_NIST_P256/);
    kms.mode = 'honest';
    await expect(kmsCheckpointSigner(client, 'alias/nobody')).rejects.toThrow(/does not exist/);
    const signer = await kmsCheckpointSigner(client, kms.keyId);
    await expect(signer.sign(new Uint8Array(4097))).rejects.toBeInstanceOf(KmsSignerError);
  });

  it('shows no more than the key ids and public key when logged', async () => {
    kms.mode = 'honest';
    const signer = await kmsCheckpointSigner(client, kms.keyId);
    expect(JSON.parse(JSON.stringify(signer))).toEqual({
      keyId: signer.keyId,
      kmsKeyId: kms.keyId,
      publicKey: toHex(signer.publicKey),
    });
  });

  it('is what the checkpoint function loads from CHECKPOINT_KMS_KEY_ID, never falling back to the entry key', async () => {
    kms.mode = 'honest';
    const signer = await loadCheckpointSigner({ CHECKPOINT_KMS_KEY_ID: kms.keyId }, () => client);
    expect(signer.keyId).toBe(keyIdOf(ed25519FromSpki(kms.spki) as Uint8Array));
    await expect(loadCheckpointSigner({ SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:x' })).rejects.toThrow(
      /neither DOCKET_CHECKPOINT_KEY_FILE nor CHECKPOINT_KMS_KEY_ID/,
    );
  });

  it('reads only an exact Ed25519 SPKI', () => {
    expect(ed25519FromSpki(kms.spki)).not.toBeNull();
    expect(ed25519FromSpki(kms.spki.subarray(1))).toBeNull();
    const bent = Uint8Array.from(kms.spki);
    bent[8] = 0x71; // OID 1.3.101.113 (Ed448)
    expect(ed25519FromSpki(bent)).toBeNull();
    expect(ed25519FromSpki(fromHex('00'.repeat(44)))).toBeNull();
  });
});
