import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** B3: "sha256:" + hex SHA-256 of the exact bytes, no canonicalization (0022:154, 289). */
export const bytesDigest = (bytes: Uint8Array): string => `sha256:${bytesToHex(sha256(bytes))}`;
