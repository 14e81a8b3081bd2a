import { createHash } from 'node:crypto';

/** B3: "sha256:" + hex SHA-256 of the exact bytes, no canonicalization (0022:154, 289). */
export const bytesDigest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
