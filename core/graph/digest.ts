import { hash } from 'node:crypto';

/** B3: "sha256:" + hex SHA-256 of the exact bytes, no canonicalization (0022:154, 289). One-shot: no Hash object. */
export const bytesDigest = (bytes: Uint8Array): string => `sha256:${hash('sha256', bytes, 'hex')}`;
