/**
 * A replay test world: the real pipeline (processRequest) over the in-memory ledger store, with in-memory pack
 * registry and request archive, so every entry replayed in these tests was written by the code that writes them in
 * production. The fetchers are plain maps that tests can purge or corrupt.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { EVALUATOR_IDENTITY } from '../../core/evaluate/index.js';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import type { TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import type { ReplayFetchers, Retained } from '../../core/replay/index.js';
import type { ReplayOptions } from '../../core/replay/types.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { processRequest, type PipelineConfig, type PipelinePorts } from '../../core/pipeline/process-request.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';

export const enc = new TextEncoder();
export const hex = (b: Uint8Array | string): string =>
  createHash('sha256')
    .update(typeof b === 'string' ? enc.encode(b) : b)
    .digest('hex');
export const example = (p: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../examples/${p}`, import.meta.url)));
export const exampleText = (p: string): string => new TextDecoder().decode(example(p));

export const BUILD = 'b'.repeat(64);

const unreadable = (detail: string) => ({
  status: 'unreadable' as const,
  reason: 'registry-integrity' as const,
  detail,
});
export const LOGS = ['t-0', 't-1'] as const;

/** A request in the pipeline's version-1 format; `extra` is appended verbatim (e.g. `,"workBudget":10`). */
export const request = (id: string, pack: string, facts: string, extra = ''): Uint8Array =>
  enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${pack}","facts":${facts}${extra}}`);

export function world(overrides: Partial<PipelineConfig> = {}) {
  const packs = new Map<string, Uint8Array>();
  const aliases = new Map<string, string>();
  const archive = new Map<string, Uint8Array>();
  const keys = keyPairFromSeed(new Uint8Array(32).fill(9));
  const signer = signerFromKeyPair(keys);
  const store = new MemoryLedgerStore();
  const config: PipelineConfig = {
    logIds: [...LOGS],
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest: BUILD },
    ...overrides,
  };
  const ports: PipelinePorts = {
    packs: cachedPackSource(
      {
        // As the DynamoDB registry reads (adapters/dynamodb-pack-registry.ts, via functions/lib/evaluate-runtime.ts):
        // bytes that do not hash to their digest, or an alias with no valid digest, are an item it cannot serve.
        getPack: async (d) => {
          const b = packs.get(d);
          if (b === undefined) return null;
          return hex(b) === d ? b : unreadable(`stored pack ${d} does not hash to its digest`);
        },
        resolveAlias: async (a) => {
          const d = aliases.get(a);
          if (d === undefined) return null;
          return /^[0-9a-f]{64}$/.test(d) ? d : unreadable(`alias ${a} holds no valid digest`);
        },
      },
      config.draftFeatures,
    ),
    archive: { put: async (b) => void archive.set(hex(b), new Uint8Array(b)) },
    ledger: ledgerWriter({ store, signer, logIds: config.logIds, now: () => '2026-12-02T14:00:00Z' }).forLog(
      config.logIds[0]!,
    ),
  };
  const draft = config.draftFeatures ?? [];
  const policy: TrustPolicy = {
    // With draft features: a /3 policy permitting them on every log (ADR 0222).
    format: draft.length > 0 ? 'docket.trust-policy/3' : 'docket.trust-policy/1',
    ...(draft.length > 0 ? { draftFeatures: LOGS.map((logId) => ({ logId, allow: [...draft] })) } : {}),
    logs: [...LOGS],
    keys: [
      {
        keyId: keys.keyId,
        publicKey: keys.publicKey,
        roles: ['entries', 'checkpoints'],
        validity: LOGS.map((logId) => ({ logId, fromSeq: 0, toSeq: null })),
      },
    ],
    authorities: [{ environment: 'test', table: 'docket-test-ledger' }],
    evaluatorBuilds: [BUILD],
  };
  /** Publishes an example pack (bytes + alias) and returns its digest. */
  const publish = (file: string): string => {
    const b = example(file);
    const d = hex(b);
    packs.set(d, b);
    const plain = JSON.parse(new TextDecoder().decode(b)) as { id: string; version: string };
    aliases.set(`${plain.id}@${plain.version}`, d);
    return d;
  };
  const fetch: ReplayFetchers = {
    requestBytes: async (d): Promise<Retained> => archive.get(d) ?? null,
    packBytes: async (d): Promise<Retained> => packs.get(d) ?? null,
    resolveAlias: async (a) => {
      const d = aliases.get(a);
      return d === undefined || /^[0-9a-f]{64}$/.test(d)
        ? (d ?? null)
        : { corrupt: `alias ${a} holds no valid digest` };
    },
  };
  const options = (o: Partial<ReplayOptions> = {}): ReplayOptions => ({
    policy,
    fetch,
    evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest: BUILD },
    ...o,
  });
  /** Runs one request through the pipeline and returns its stored entry. */
  const submit = async (bytes: Uint8Array): Promise<StoredEntry> => {
    const o = await processRequest(bytes, config, ports);
    if (o.status !== 'recorded') throw new Error(`not recorded: ${o.code}`);
    // The position, as the delivery stage writes it once the batch's job names the entry (core/pipeline/deliver-job.ts).
    await store.putPositionIfAbsent({ requestId: o.requestId, logId: o.logId, seq: o.seq });
    for await (const e of store.readEntries(o.logId, o.seq, o.seq)) return e;
    throw new Error('recorded entry not found');
  };
  return { packs, aliases, archive, keys, signer, store, config, ports, policy, publish, fetch, options, submit };
}

export type World = ReturnType<typeof world>;

/** Writes the world's trust policy (its one entry key, its authorities, BUILD) as a policy file at `path`. */
export function writePolicyFile(w: World, path: string): string {
  const k = w.policy.keys[0]!;
  writeFileSync(
    path,
    JSON.stringify({
      format: 'docket.trust-policy/1',
      logs: [...LOGS],
      keys: [{ keyId: k.keyId, publicKey: toHex(k.publicKey), validity: k.validity }],
      authorities: w.policy.authorities,
      evaluatorBuilds: [BUILD],
    }),
  );
  return path;
}
