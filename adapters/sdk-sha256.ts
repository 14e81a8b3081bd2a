/**
 * The SHA-256 / HMAC-SHA-256 the AWS SDK clients sign requests with (SigV4), as the SDK's own Node implementation
 * does it except for one thing: an HMAC key given as bytes is turned into a KeyObject once and reused.
 *
 * On Node 24 `createHmac('sha256', bytes)` costs ~8× what it does with a string or a KeyObject key (~95 µs against
 * ~12 µs on the development VM; Node 20: ~12 µs either way): node:crypto checks whether the key is a KeyObject the
 * slow way. SigV4 computes an HMAC keyed by the cached signing key — the same Uint8Array every call — for every
 * request, so each SDK call paid it (docs/adr/0250-sdk-hmac-keys-as-key-objects.md). The digests are unchanged.
 */
import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;

/**
 * Byte keys by identity (SigV4's signing key cache hands back the same array for a day, region and service), each
 * with a copy of the bytes it was made from: an array whose contents changed since gets a new KeyObject.
 */
const keyObjects = new WeakMap<object, { readonly bytes: Buffer; readonly key: KeyObject }>();

function hmacKey(secret: SourceData): string | KeyObject {
  if (typeof secret === 'string') return secret; // node:crypto's fast path already
  const bytes = ArrayBuffer.isView(secret)
    ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
    : Buffer.from(secret);
  const known = keyObjects.get(secret);
  if (known !== undefined && known.bytes.equals(bytes)) return known.key;
  const copy = Buffer.from(bytes);
  const key = createSecretKey(copy);
  keyObjects.set(secret, { bytes: copy, key });
  return key;
}

function toBytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** The SDK's Checksum interface (`sha256` client option): update, digest, reset. */
export class KeyedSha256 {
  readonly digestLength = 32;
  private readonly secret: SourceData | undefined;
  private hash: Hash | Hmac;
  private finished = false;

  constructor(secret?: SourceData) {
    // As the SDK's own: an empty string is no key (a plain hash).
    this.secret = secret === '' ? undefined : secret;
    this.hash = this.create();
  }

  update(data: SourceData): void {
    if (this.finished) throw new Error('Attempted to update an already finished hash.');
    this.hash.update(toBytes(data));
  }

  digest(): Promise<Uint8Array> {
    let out: Buffer;
    if (this.secret !== undefined) {
      this.finished = true;
      out = this.hash.digest();
    } else {
      // A plain hash may be digested and then updated further, as the SDK's own allows.
      out = (this.hash as Hash).copy().digest();
    }
    return Promise.resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
  }

  reset(): void {
    this.hash = this.create();
    this.finished = false;
  }

  private create(): Hash | Hmac {
    return this.secret !== undefined ? createHmac('sha256', hmacKey(this.secret)) : createHash('sha256');
  }
}
