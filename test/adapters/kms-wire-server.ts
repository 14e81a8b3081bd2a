/**
 * A small HTTP server speaking the AWS KMS JSON 1.1 protocol (X-Amz-Target TrentService.GetPublicKey / .Sign) with a
 * real Ed25519 key from node:crypto, so the KMS checkpoint signer is tested over the wire through the real SDK
 * client, not by mocking it. It checks what KMS checks (SigV4 Authorization present, the key id, RAW messages of at
 * most 4096 bytes, algorithm ED25519_SHA_512) and answers as KMS documents: base64 blobs, DER SPKI public keys,
 * errors as {"__type","message"} with status 400.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface KmsCall {
  readonly target: string;
  readonly body: Record<string, unknown>;
}

export interface KmsWireServer {
  readonly endpoint: string;
  readonly keyId: string;
  /** The DER SPKI the server returns for its key. */
  readonly spki: Uint8Array;
  readonly calls: KmsCall[];
  /** How the server misbehaves, for the refusal tests. */
  mode: 'honest' | 'wrong-key' | 'p256-key';
  close(): Promise<void>;
}

const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/0b1d1e5e-0000-4000-8000-00000000cafe';

export async function startKmsWireServer(): Promise<KmsWireServer> {
  const key = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const spki = new Uint8Array(key.publicKey.export({ format: 'der', type: 'spki' }));
  const calls: KmsCall[] = [];
  const state = { mode: 'honest' as KmsWireServer['mode'] };

  const fail = (res: ServerResponse, type: string, message: string): void => {
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify({ __type: type, message }));
  };
  const answer = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, raw: string, res: ServerResponse): void => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-amz-json-1.1'))
      return fail(res, 'UnrecognizedClientException', 'not a KMS JSON 1.1 request');
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
      return fail(res, 'UnrecognizedClientException', 'request is not SigV4-signed');
    const body = JSON.parse(raw) as Record<string, unknown>;
    calls.push({ target, body });
    if (body.KeyId !== KEY_ARN && body.KeyId !== 'alias/docket-checkpoint')
      return fail(res, 'NotFoundException', `key ${String(body.KeyId)} does not exist`);
    if (target === 'TrentService.GetPublicKey') {
      const p256 = state.mode === 'p256-key';
      const pub = p256
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'der', type: 'spki' })
        : Buffer.from(spki);
      return answer(res, {
        KeyId: KEY_ARN,
        KeySpec: p256 ? 'ECC_NIST_P256' : 'ECC_NIST_EDWARDS25519',
        KeyUsage: 'SIGN_VERIFY',
        PublicKey: Buffer.from(pub).toString('base64'),
        SigningAlgorithms: p256 ? ['ECDSA_SHA_256'] : ['ED25519_SHA_512', 'ED25519_PH_SHA_512'],
      });
    }
    if (target === 'TrentService.Sign') {
      if (body.SigningAlgorithm !== 'ED25519_SHA_512')
        return fail(res, 'InvalidKeyUsageException', `algorithm ${String(body.SigningAlgorithm)} not supported`);
      if (body.MessageType !== 'RAW') return fail(res, 'ValidationException', 'this test key signs RAW messages');
      const message = Buffer.from(String(body.Message), 'base64');
      if (message.length === 0 || message.length > 4096)
        return fail(res, 'ValidationException', 'Message must be 1 to 4096 bytes');
      const signer: KeyObject = state.mode === 'wrong-key' ? other.privateKey : key.privateKey;
      return answer(res, {
        KeyId: KEY_ARN,
        Signature: sign(null, message, signer).toString('base64'),
        SigningAlgorithm: 'ED25519_SHA_512',
      });
    }
    return fail(res, 'UnknownOperationException', target);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    keyId: KEY_ARN,
    spki,
    calls,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
