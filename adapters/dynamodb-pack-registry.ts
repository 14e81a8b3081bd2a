/**
 * The pack registry (ADR 0062, ADR 0081): exact pack bytes by SHA-256 digest, and immutable aliases
 * `id@version` → digest.
 *   pack   pk "pack#<digest>"           sk "pack"   bytes (B), size (N)
 *   alias  pk "alias#<id>@<version>"    sk "alias"  digest (S)
 * Both are conditional creates. A pack item can only ever hold the bytes that hash to its key; an alias, once
 * published, names one digest forever: publishing it again with the same bytes is an idempotent success, with
 * other bytes a typed refusal (docs/adr/0062-content-addressed-tables.md).
 */
import { ContentTable, MAX_STORED_BYTES, sha256Hex, type ContentTableOptions } from './content-table.js';

export type PackRegistryOptions = ContentTableOptions;

export type PublishOutcome =
  | { readonly ok: true; readonly digest: string; readonly alias: string; readonly created: boolean }
  | {
      readonly ok: false;
      readonly code: 'alias-conflict';
      readonly alias: string;
      readonly digest: string;
      readonly existingDigest: string;
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly code: 'pack-too-large';
      readonly size: number;
      readonly limit: number;
      readonly message: string;
    }
  | { readonly ok: false; readonly code: 'invalid-alias'; readonly alias: string; readonly message: string };

/** A stored pack whose bytes do not hash to its key: refused, never served. */
export class RegistryIntegrityError extends Error {
  readonly code = 'registry-integrity';
}

export class DynamoDbPackRegistry {
  private readonly table: ContentTable;

  constructor(options: PackRegistryOptions) {
    this.table = new ContentTable(options);
  }

  /** Stores the bytes under their digest (idempotent). Returns the digest. */
  async putPack(bytes: Uint8Array): Promise<{ digest: string; created: boolean }> {
    return this.table.putContent('pack', bytes);
  }

  /** The exact bytes for a digest, or null when no such pack was published. */
  async getPack(digest: string): Promise<Uint8Array | null> {
    return this.table.getContent(
      'pack',
      digest,
      () => new RegistryIntegrityError(`stored pack ${digest} does not hash to its digest`),
    );
  }

  /** The digest an alias `id@version` names, or null. */
  async resolveAlias(alias: string): Promise<string | null> {
    return this.table.aliasDigest(
      'alias',
      alias,
      () => new RegistryIntegrityError(`alias ${alias} holds no valid digest`),
    );
  }

  /** Pack bytes first, then the alias, so an alias never names a digest whose bytes are missing. */
  async publish(packId: string, version: string, bytes: Uint8Array): Promise<PublishOutcome> {
    const alias = `${packId}@${version}`;
    if (packId === '' || version === '' || packId.includes('@')) {
      return { ok: false, code: 'invalid-alias', alias, message: `"${alias}" is not an id@version alias` };
    }
    if (bytes.byteLength > MAX_STORED_BYTES) {
      return {
        ok: false,
        code: 'pack-too-large',
        size: bytes.byteLength,
        limit: MAX_STORED_BYTES,
        message: `pack of ${bytes.byteLength} bytes exceeds ${MAX_STORED_BYTES}`,
      };
    }
    // id@version names one pack forever (ADR 0450): a taken alias is refused before any byte is stored, so a refused
    // publication leaves no second pack claiming the same id@version for a requester to name by digest.
    const taken = await this.resolveAlias(alias);
    if (taken !== null && taken !== sha256Hex(bytes)) return conflict(alias, sha256Hex(bytes), taken);
    const { digest } = await this.putPack(bytes);
    const created = await this.table.putIfAbsent({
      ...this.table.key(`alias#${alias}`, 'alias'),
      digest: { S: digest },
    });
    if (created) return { ok: true, digest, alias, created: true };
    const existingDigest = await this.resolveAlias(alias);
    if (existingDigest === digest) return { ok: true, digest, alias, created: false };
    return conflict(alias, digest, existingDigest ?? '');
  }
}

function conflict(alias: string, digest: string, existingDigest: string): PublishOutcome {
  return {
    ok: false,
    code: 'alias-conflict',
    alias,
    digest,
    existingDigest,
    message: `${alias} is already published as ${existingDigest}; an alias is immutable, publish a new version`,
  };
}
