import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { DraftFeature } from '../../core/pack/index.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { processRequest, type PipelineConfig } from '../../core/pipeline/process-request.js';
import { draftFeaturesFromEnv } from '../../functions/lib/environment-lists.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { trustPolicyDocument } from '../../stack/local-files.js';

const Q: DraftFeature = 'rfc0008-quantifiers';
const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const QUANTIFIER_PACK = new Uint8Array(
  readFileSync(new URL('../../conformance/rfc0008/evaluation/packs/q-exists-ok.json', import.meta.url)),
);
const CORE_PACK = new Uint8Array(
  readFileSync(new URL('../../examples/vendor-onboarding-target.json', import.meta.url)),
);
const packs = new Map([QUANTIFIER_PACK, CORE_PACK].map((b) => [hex(b), b]));
const req = (id: string, pack: Uint8Array | string, facts: string) =>
  new TextEncoder().encode(
    `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${typeof pack === 'string' ? pack : hex(pack)}","facts":${facts}}`,
  );

/** Runs one request through the pipeline of a deployment enabling `draftFeatures`; returns the recorded entry. */
async function recorded(
  draftFeatures: readonly DraftFeature[],
  bytes: Uint8Array,
): Promise<{ entry: SignedEntry; body: string }> {
  const store = new MemoryLedgerStore();
  const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(7)));
  const config: PipelineConfig = {
    logIds: ['t-0'],
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'b'.repeat(64) },
    ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
  };
  const o = await processRequest(bytes, config, {
    packs: cachedPackSource(
      { getPack: async (d) => packs.get(d) ?? null, resolveAlias: async () => null },
      draftFeatures,
    ),
    archive: { put: async () => undefined },
    ledger: ledgerWriter({ store, signer, logIds: config.logIds, now: () => '2026-12-03T14:00:00Z' }).forLog('t-0'),
  });
  expect(o.status).toBe('recorded');
  let body = '';
  for await (const e of store.readEntries('t-0', 0)) body = e.body;
  const parsed = parseStoredEntry(body);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  return { entry: parsed.value.entry, body };
}

const FACTS = '{"xs":[{"ok":false},{"ok":true},{"ok":false}]}';

describe('the pipeline records the deployment’s draft features', () => {
  it('with the opt-in, a quantifier pack is evaluated and recorded as a /2 disposition naming the feature', async () => {
    const { entry } = await recorded([Q], req('q-1', QUANTIFIER_PACK, FACTS));
    expect(entry).toMatchObject({ format: 'docket.ledger-entry/2', draftFeatures: [Q], kind: 'disposition' });
    if (entry.kind === 'disposition')
      expect(entry.disposition.kind === 'outcome' && entry.disposition.outcomeId).toBe('yes');
  });

  it('without it, the same pack is the structural refusal of today, recorded as a /1 entry', async () => {
    const { entry, body } = await recorded([], req('q-1', QUANTIFIER_PACK, FACTS));
    expect(entry).toMatchObject({ format: 'docket.ledger-entry/1', kind: 'evaluation-error' });
    if (entry.kind === 'evaluation-error')
      expect(entry.error).toMatchObject({ class: 'pack-not-conformant', phase: 'preflight' });
    expect(body).not.toContain('draftFeatures');
  });

  it('every entry of an opted-in deployment records the features, a refusal and a Core pack’s disposition too', async () => {
    const refusal = await recorded([Q], req('r-1', 'f'.repeat(64), '{}'));
    expect(refusal.entry).toMatchObject({ kind: 'admission-refusal', draftFeatures: [Q] });
    const core = await recorded([Q], req('c-1', CORE_PACK, '{"vendor":{"riskScore":"12.5","sanctioned":false}}'));
    const plain = await recorded([], req('c-1', CORE_PACK, '{"vendor":{"riskScore":"12.5","sanctioned":false}}'));
    expect(core.entry).toMatchObject({ format: 'docket.ledger-entry/2', draftFeatures: [Q] });
    // The grammar did not change the Core pack's result: the same disposition, only the record of the opt-in differs.
    expect(core.entry.kind === 'disposition' && core.entry.dispositionDigest).toBe(
      plain.entry.kind === 'disposition' && plain.entry.dispositionDigest,
    );
  });
});

describe('DRAFT_FEATURES in the evaluate function’s environment', () => {
  it('absent or empty is none; names are sorted and deduplicated', () => {
    expect(draftFeaturesFromEnv(undefined)).toEqual([]);
    expect(draftFeaturesFromEnv('')).toEqual([]);
    expect(draftFeaturesFromEnv(`["${Q}","${Q}"]`)).toEqual([Q]);
  });
  it('an unknown name or a value that is not a list of strings fails the cold start', () => {
    expect(() => draftFeaturesFromEnv('["rfc9999-future"]')).toThrow(/unknown feature "rfc9999-future"/);
    expect(() => draftFeaturesFromEnv('"rfc0008-quantifiers"')).toThrow(/JSON array of strings/);
  });
});

describe('the local trust policy', () => {
  const base = {
    keys: keyPairFromSeed(new Uint8Array(32).fill(1)),
    checkpointKey: keyPairFromSeed(new Uint8Array(32).fill(2)),
    logIds: ['log-1', 'log-0'],
    environment: 'local',
    table: 'docket-local-ledger',
    evaluatorBuilds: ['e'.repeat(64)],
  };
  it('is a /2 policy without draft features, and a /3 permitting exactly the enabled ones on every log with them', () => {
    expect(JSON.parse(trustPolicyDocument(base))).not.toHaveProperty('draftFeatures');
    expect(JSON.parse(trustPolicyDocument(base)).format).toBe('docket.trust-policy/2');
    const text = trustPolicyDocument({ ...base, draftFeatures: [Q] });
    const p = readTrustPolicy(new TextEncoder().encode(text));
    expect(p.ok && p.value.format).toBe('docket.trust-policy/3');
    expect(p.ok && p.value.draftFeatures).toEqual([
      { logId: 'log-0', allow: [Q] },
      { logId: 'log-1', allow: [Q] },
    ]);
  });
});
