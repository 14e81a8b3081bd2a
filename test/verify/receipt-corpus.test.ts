import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateReceiptCorpus } from '../../conformance/ledger/receipt-scenarios.js';
import {
  readReceipt,
  readTrustPolicy,
  readWitnessPolicy,
  verifyReceipt,
  type ReceiptVerdict,
} from '../../core/ledger/index.js';

const DIR = join(import.meta.dirname, '..', '..', 'conformance', 'ledger');
const CORPUS = join(DIR, 'receipts');
const names = readdirSync(CORPUS)
  .filter((n) => statSync(join(CORPUS, n)).isDirectory())
  .sort();
const file = (name: string, f: string): Uint8Array | undefined => {
  const p = join(CORPUS, name, f);
  return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
};

function verdictOf(name: string): ReceiptVerdict {
  const r = readReceipt(file(name, 'receipt.json')!);
  const p = readTrustPolicy(file(name, 'policy.json')!);
  if (!r.ok || !p.ok) throw new Error(`${name}: unreadable receipt or policy`);
  const wpBytes = file(name, 'witness-policy.json');
  const wp = wpBytes === undefined ? undefined : readWitnessPolicy(wpBytes);
  if (wp !== undefined && !wp.ok) throw new Error(`${name}: unreadable witness policy`);
  const facts = file(name, 'facts.json');
  return verifyReceipt(r.value, p.value, {
    ...(wp !== undefined && wp.ok ? { witnesses: wp.value } : {}),
    ...(facts !== undefined ? { inputs: { facts } } : {}),
  });
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const full = join(dir, n);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(relative(DIR, full));
  }
  return out.sort();
}

describe('the receipt corpus', () => {
  it('holds honest and tampered scenarios', () => {
    expect(names.length).toBeGreaterThanOrEqual(14);
    expect(names.filter((n) => n.startsWith('honest')).length).toBe(4);
  });

  for (const name of names)
    it(`${name}: verify-receipt gives exactly the expected findings`, () => {
      const expected = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as ReceiptVerdict;
      expect(verdictOf(name)).toEqual(expected);
    });

  it('every tampered scenario is refused and every honest one accepted', () => {
    for (const name of names) expect(verdictOf(name).ok, name).toBe(name.startsWith('honest'));
  });

  it('the committed files are exactly a fresh generation', async () => {
    const fresh = await generateReceiptCorpus();
    expect(listFiles(CORPUS)).toEqual([...fresh.keys()].sort());
    for (const [path, text] of fresh) expect(readFileSync(join(DIR, path), 'utf8'), path).toBe(text);
  });
});
