import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Exact bytes of a repository file (examples are the corpus owner's hand-worked RFC 0006 instances). */
export const file = (path: string): Uint8Array => new Uint8Array(readFileSync(root + path));
export const json = (path: string): Record<string, unknown> =>
  JSON.parse(new TextDecoder().decode(file(path))) as Record<string, unknown>;
