/**
 * The promises corpus (conformance/ledger/promises/, ADRs 0290–0292): every forged result, deleted entry and archive
 * state gets exactly the verdict written by hand in conformance/ledger/promise-scenarios.ts, and the committed files
 * are a fresh generation byte for byte.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePromiseCorpus } from '../../conformance/ledger/promise-scenarios.js';
import { recordOf } from '../../conformance/ledger/fixtures.js';
import { auditPromise, readTrustPolicy } from '../../core/ledger/index.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { omissionFindings, type OmissionInputs } from '../../core/ledger/verify/omission.js';
import { readRequest } from '../../core/admission/index.js';
import { readSavedResult } from '../../core/pipeline/index.js';
import { readResultNotification } from '../../core/pipeline/result-notification.js';
import { verifyResultEntry } from '../../core/pipeline/result-verdict.js';

const DIR = join(import.meta.dirname, '..', '..', 'conformance', 'ledger');
const CORPUS = join(DIR, 'promises');
const enc = new TextEncoder();
const names = (kind: string) =>
  readdirSync(join(CORPUS, kind))
    .filter((n) => statSync(join(CORPUS, kind, n)).isDirectory())
    .sort();
const text = (kind: string, name: string, f: string) => readFileSync(join(CORPUS, kind, name, f), 'utf8');
const policyOf = (kind: string, name: string) => {
  const p = readTrustPolicy(enc.encode(text(kind, name, 'policy.json')));
  if (!p.ok) throw new Error(p.error.detail);
  return p.value;
};
const lines = (t: string) => t.split('\n').filter((l) => l !== '');

function resultVerdict(name: string): string {
  const n = readResultNotification(enc.encode(text('results', name, 'notification.json')));
  if (!n.ok) return n.error.code;
  const bytes = enc.encode(text('results', name, 'request.json'));
  const r = readRequest(bytes);
  if (!r.ok || n.value.entry === null) throw new Error(`${name}: unreadable request or omitted entry`);
  const v = verifyResultEntry(
    n.value.entry,
    { requestId: r.value.requestId, bytes, request: r.value },
    policyOf('results', name),
  );
  return v.ok ? 'ok' : v.reason;
}

async function savedVerdict(name: string): Promise<unknown> {
  const store = new MemoryLedgerStore();
  const entries = lines(text('saved', name, 'entries.jsonl'));
  for (const [seq, body] of entries.entries()) await store.putEntryIfAbsent(recordOf(body, 'log-a', seq));
  for (const body of lines(text('saved', name, 'checkpoints.jsonl'))) {
    const c = JSON.parse(body) as { logId: string; treeSize: number };
    await store.putCheckpointIfAbsent({ logId: c.logId, treeSize: c.treeSize, body });
  }
  const saved = readSavedResult(enc.encode(text('saved', name, 'saved.json')));
  if (!saved.ok) throw new Error(saved.error.detail);
  const audit = await auditPromise(store, saved.value.entry, policyOf('saved', name));
  return audit.status === 'verdict' ? audit.verdict : { notYet: audit.status };
}

function archiveVerdict(name: string): unknown {
  const raw = JSON.parse(text('archive', name, 'inputs.json')) as Omit<
    OmissionInputs,
    'recorded' | 'redriveSources'
  > & {
    recorded: string[];
    redriveSources: [string, string][];
  };
  return omissionFindings({ ...raw, recorded: new Set(raw.recorded), redriveSources: new Map(raw.redriveSources) });
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

describe('the promises corpus', () => {
  it('holds forged results, deleted entries and archive states, each with an honest counterpart', () => {
    expect(names('results')).toContain('honest');
    expect(names('saved')).toContain('honest-included');
    expect(names('archive').length).toBeGreaterThanOrEqual(4);
    expect(existsSync(join(CORPUS, 'saved', 'deleted-and-refilled', 'expected.json'))).toBe(true);
  });

  for (const name of names('results'))
    it(`results/${name}: submit --wait's verdict is the expected one`, () => {
      expect(resultVerdict(name)).toBe(
        (JSON.parse(text('results', name, 'expected.json')) as { verdict: string }).verdict,
      );
    });

  for (const name of names('saved'))
    it(`saved/${name}: the requester's audit gives exactly the expected verdict`, async () => {
      expect(await savedVerdict(name)).toEqual(JSON.parse(text('saved', name, 'expected.json')));
    });

  for (const name of names('archive'))
    it(`archive/${name}: the auditor's cross-check gives exactly the expected findings`, () => {
      expect(archiveVerdict(name)).toEqual(JSON.parse(text('archive', name, 'expected.json')));
    });

  it('the committed files are exactly a fresh generation', async () => {
    const fresh = await generatePromiseCorpus();
    expect(listFiles(CORPUS)).toEqual([...fresh.keys()].sort());
    for (const [path, t] of fresh) expect(readFileSync(join(DIR, path), 'utf8'), path).toBe(t);
  });
});
