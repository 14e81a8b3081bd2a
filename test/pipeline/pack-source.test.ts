import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';

const PACK = new Uint8Array(readFileSync(new URL('../../examples/data-request-intake-triage.json', import.meta.url)));
const DIGEST = createHash('sha256').update(PACK).digest('hex');

/** A registry that counts its reads and answers each one only when `release` is called. */
function slowRegistry(answer: () => Uint8Array | null) {
  let reads = 0;
  const waiting: (() => void)[] = [];
  return {
    get reads() {
      return reads;
    },
    release: () => waiting.splice(0).forEach((go) => go()),
    getPack: (): Promise<Uint8Array | null> => {
      reads++;
      return new Promise((resolve) => waiting.push(() => resolve(answer())));
    },
    resolveAlias: () => Promise.resolve(null),
  };
}

describe('the pack source', () => {
  it('reads a pack once for every record of a batch that asks for it at the same time', async () => {
    const registry = slowRegistry(() => PACK);
    const packs = cachedPackSource(registry);
    const loads = Array.from({ length: 10 }, () => packs.load(DIGEST));
    registry.release();
    const loaded = await Promise.all(loads);
    expect(registry.reads).toBe(1);
    expect(new Set(loaded).size).toBe(1);
    expect(loaded[0]).toMatchObject({ status: 'found' });
    await packs.load(DIGEST);
    expect(registry.reads).toBe(1);
  });

  it('reads a missing pack again once the read that found it missing has settled', async () => {
    const registry = slowRegistry(() => null);
    const packs = cachedPackSource(registry);
    const both = [packs.load(DIGEST), packs.load(DIGEST)];
    registry.release();
    expect(await Promise.all(both)).toEqual([{ status: 'missing' }, { status: 'missing' }]);
    expect(registry.reads).toBe(1);
    const again = packs.load(DIGEST);
    registry.release();
    expect(await again).toEqual({ status: 'missing' });
    expect(registry.reads).toBe(2);
  });
});
