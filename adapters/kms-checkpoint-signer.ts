/**
 * The checkpoint signer backed by a non-exportable AWS KMS key (key spec ECC_NIST_EDWARDS25519;
 * docs/adr/0120-separate-entry-and-checkpoint-keys.md). The private key never leaves KMS: the checkpoint function
 * calls `Sign` with SigningAlgorithm ED25519_SHA_512 and MessageType RAW, which is pure Ed25519 (RFC 8032 §5.1.6)
 * over the message, so the signature verifies like any other Docket signature. `GetPublicKey` returns the DER
 * SubjectPublicKeyInfo (RFC 8410); the raw 32 bytes give the key id the trust policy pins.
 *
 * Every signature KMS returns is checked under that public key before it is used: a wrong key, a wrong algorithm or
 * a corrupted answer is refused here, not discovered by verifiers.
 */
import { GetPublicKeyCommand, SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import {
  ed25519FromSpki,
  isAcceptablePublicKey,
  keyIdOf,
  toHex,
  verifyEd25519,
  type CheckpointSigner,
} from '../core/ledger/index.js';

/** KMS accepts at most 4096 bytes of RAW message. */
const KMS_RAW_MESSAGE_LIMIT = 4096;
export const KMS_SIGNING_ALGORITHM = 'ED25519_SHA_512';
export const KMS_KEY_SPEC = 'ECC_NIST_EDWARDS25519';

export class KmsSignerError extends Error {
  override readonly name = 'KmsSignerError';
  readonly code = 'kms-signer-unusable';
}

export interface KmsCheckpointSigner extends CheckpointSigner {
  readonly publicKey: Uint8Array;
}

/** Reads the key's public half once, checks it is an Ed25519 signing key, and returns the signer. */
export async function kmsCheckpointSigner(client: KMSClient, kmsKeyId: string): Promise<KmsCheckpointSigner> {
  const info = await client.send(new GetPublicKeyCommand({ KeyId: kmsKeyId }));
  if (info.KeySpec !== KMS_KEY_SPEC || info.KeyUsage !== 'SIGN_VERIFY')
    throw new KmsSignerError(
      `KMS key ${kmsKeyId} is ${info.KeySpec}/${info.KeyUsage}, not ${KMS_KEY_SPEC}/SIGN_VERIFY`,
    );
  if (!(info.SigningAlgorithms ?? []).includes(KMS_SIGNING_ALGORITHM))
    throw new KmsSignerError(`KMS key ${kmsKeyId} does not offer ${KMS_SIGNING_ALGORITHM}`);
  const publicKey = info.PublicKey === undefined ? null : ed25519FromSpki(info.PublicKey);
  if (publicKey === null || !isAcceptablePublicKey(publicKey))
    throw new KmsSignerError(`KMS key ${kmsKeyId} has no acceptable Ed25519 public key`);
  const keyId = keyIdOf(publicKey);
  return {
    keyId,
    publicKey,
    async sign(message: Uint8Array): Promise<Uint8Array> {
      if (message.length > KMS_RAW_MESSAGE_LIMIT)
        throw new KmsSignerError(`message of ${message.length} bytes exceeds KMS's RAW limit`);
      const out = await client.send(
        new SignCommand({
          KeyId: kmsKeyId,
          Message: message,
          MessageType: 'RAW',
          SigningAlgorithm: KMS_SIGNING_ALGORITHM,
        }),
      );
      const signature = out.Signature;
      if (signature === undefined || !verifyEd25519(signature, message, publicKey))
        throw new KmsSignerError(`KMS key ${kmsKeyId} returned a signature that does not verify under ${keyId}`);
      return Uint8Array.from(signature);
    },
    toJSON: () => ({ keyId, kmsKeyId, publicKey: toHex(publicKey) }),
  } as KmsCheckpointSigner;
}
