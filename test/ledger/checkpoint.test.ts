import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { appendOnce, slotCommits } from '../../core/ledger/write/append.js';
import { fromHex, sha256Hex, toHex } from '../../core/ledger/primitives/bytes.js';
import {
  buildCheckpoint,
  CHECKPOINT_FORMAT,
  CheckpointInvariantError,
  parseCheckpoint,
  verifyCheckpointSignature,
  type UnsignedCheckpoint,
} from '../../core/ledger/checkpoints/checkpoint.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry, entrySigningMessage, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { exportCheckpoints, readCheckpointExport, readLedgerExport } from '../../core/ledger/export/export.js';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  merkleRoot,
  verifyConsistency,
  verifyInclusion,
} from '../../core/ledger/checkpoints/merkle.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { verifyEd25519 } from '../../core/ledger/primitives/signature.js';
import {
  CHECKPOINT_KEYS,
  CHECKPOINT_SIGNER,
  computeLogTree,
  dispositionEntry,
  KEYS,
  ledgerExportLines,
  policyV2,
  SIGNER,
  verifyEntrySignature,
} from './fixtures.js';

const POLICY = policyV2();

const ORIGIN = { environment: 'test', table: 'docket-ledger' };
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

async function fill(store: MemoryLedgerStore, n: number, logId = 'log-a'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const requestId = `${logId}-r${i}`;
    const requestDigest = sha256Hex(requestId);
    const r = await appendOnce(store, {
      requestId,
      requestDigest,
      logId,
      slotCommits: slotCommits(),
      build: ({ seq, prevHash }) =>
        buildEntry(dispositionEntry({ logId, seq, prevHash, requestId, requestDigest }), SIGNER),
    });
    if (!r.ok) throw new Error('append failed');
  }
}

const unsigned = (over: Partial<Record<string, unknown>> = {}): UnsignedCheckpoint =>
  ({
    format: CHECKPOINT_FORMAT,
    logId: 'log-a',
    treeSize: 2,
    entriesVerified: true,
    rootHash: sha256Hex('r'),
    chainHead: sha256Hex('h'),
    keyId: KEYS.keyId,
    origin: ORIGIN,
    time: '2026-12-02T14:00:00Z',
    ...over,
  }) as UnsignedCheckpoint;

describe('checkpoints', () => {
  it('state the RFC 9162 root over the entry hashes and the chain head of the last entry', async () => {
    const store = new MemoryLedgerStore();
    await fill(store, 11);
    const w = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:00:00Z',
    });
    if (w.status === 'refused') throw new Error(JSON.stringify(w.findings));
    expect(w.status).toBe('written');
    const cp = parseCheckpoint(w.stored.body);
    expect(cp.ok).toBe(true);
    if (!cp.ok) return;
    const bodies = store.snapshot('log-a').map((e) => e.body);
    expect(cp.value.treeSize).toBe(11);
    expect(cp.value.rootHash).toBe(toHex(merkleRoot(bodies.map((b) => leafHash(utf8(b))))));
    expect(cp.value.chainHead).toBe(store.snapshot('log-a')[10]?.projection.entryHash);
    expect(cp.value.format).toBe('docket.checkpoint/2');
    expect(cp.value.entriesVerified).toBe(true);
    expect(verifyCheckpointSignature(cp.value, CHECKPOINT_KEYS.publicKey)).toBe(true);
    expect(verifyCheckpointSignature(cp.value, CHECKPOINT_KEYS.publicKey, 'noble')).toBe(true);
    expect(verifyCheckpointSignature(cp.value, KEYS.publicKey)).toBe(false);
  });

  it('prove each entry is included in a checkpoint and that a later checkpoint extends an earlier one', async () => {
    const store = new MemoryLedgerStore();
    await fill(store, 5);
    const firstWrite = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:00:00Z',
    });
    expect(firstWrite.status).toBe('written');
    const first = await computeLogTree(store, 'log-a');
    await fill(store, 8, 'log-a'); // request ids repeat the first five, so only three new entries land
    const secondWrite = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T15:00:00Z',
    });
    // The second run verified only the three entries the first checkpoint did not cover.
    expect(secondWrite.status === 'written' && secondWrite.entriesVerified).toBe(3);
    const second = { state: await computeLogTree(store, 'log-a', { from: first }) };
    expect(second.state.treeSize).toBe(8);
    const leaves = store.snapshot('log-a').map((e) => fromHex(e.projection.entryHash));
    const root = fromHex(second.state.rootHash);
    leaves.forEach((l, i) => expect(verifyInclusion(i, 8, l, inclusionProof(i, leaves), root)).toBe(true));
    const proof = consistencyProof(5, leaves);
    expect(verifyConsistency(5, 8, fromHex(first.rootHash), root, proof)).toBe(true);
    const full = await computeLogTree(store, 'log-a');
    expect(full.rootHash).toBe(second.state.rootHash);
  });

  it('cover an empty log with the empty-tree root and a null chain head', async () => {
    const store = new MemoryLedgerStore();
    const w = await checkpointLog(store, 'log-empty', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:00:00Z',
    });
    if (w.status === 'refused') throw new Error(JSON.stringify(w.findings));
    const cp = parseCheckpoint(w.stored.body);
    expect(cp.ok && [cp.value.treeSize, cp.value.rootHash, cp.value.chainHead]).toEqual([
      0,
      toHex(merkleRoot([])),
      null,
    ]);
  });

  it('never overwrite a checkpoint of the same tree size', async () => {
    const store = new MemoryLedgerStore();
    await fill(store, 2);
    const a = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:00:00Z',
    });
    const b = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:05:00Z',
    });
    if (a.status === 'refused' || b.status === 'refused') throw new Error('refused');
    expect([a.status, b.status]).toEqual(['written', 'existing']);
    expect(b.stored.body).toBe(a.stored.body);
    const all: string[] = [];
    for await (const c of store.readCheckpoints('log-a')) all.push(c.body);
    expect(all).toEqual([a.stored.body]);
  });

  it('use a signature domain that no entry uses, so one can never stand for the other', () => {
    const { checkpoint } = buildCheckpoint(unsigned(), SIGNER);
    const entry = buildEntry(dispositionEntry(), SIGNER).entry;
    expect(verifyEd25519(fromHex(checkpoint.signature), entrySigningMessage(entry), KEYS.publicKey)).toBe(false);
    const swapped = { ...entry, signature: checkpoint.signature };
    expect(verifyEntrySignature(swapped, KEYS.publicKey)).toBe(false);
  });

  it('are read strictly: non-canonical bytes, unknown members and broken rules are malformed', () => {
    const { body } = buildCheckpoint(unsigned(), SIGNER);
    expect(parseCheckpoint(body).ok).toBe(true);
    for (const bad of [
      `${body} `,
      canonicalize({ ...JSON.parse(body), extra: true }) as string,
      canonicalize({ ...JSON.parse(body), treeSize: 0 }) as string,
      body.replace('"treeSize":2', '"treeSize":2.0'),
    ]) {
      const r = parseCheckpoint(bad);
      expect(r.ok ? 'ok' : r.error.code).toBe('malformed');
    }
    const v2 = parseCheckpoint(canonicalize({ ...JSON.parse(body), format: 'docket.checkpoint/3' }) as string);
    expect(v2.ok ? 'ok' : v2.error.code).toBe('unsupported-version');
    // A /2 checkpoint without entriesVerified, or a /1 checkpoint with it, is malformed: the field is the version's.
    const { entriesVerified: _drop, ...noField } = JSON.parse(body) as Record<string, unknown>;
    for (const bad of [noField, { ...JSON.parse(body), entriesVerified: false }]) {
      const r = parseCheckpoint(canonicalize(bad) as string);
      expect(r.ok ? 'ok' : r.error.code).toBe('malformed');
    }
    const v1 = { ...JSON.parse(body), format: 'docket.checkpoint/1' } as Record<string, unknown>;
    const r1 = parseCheckpoint(canonicalize(v1) as string);
    expect(r1.ok ? 'ok' : r1.error.code).toBe('malformed');
    delete v1.entriesVerified;
    const r1ok = parseCheckpoint(canonicalize(v1) as string);
    expect(r1ok.ok).toBe(true);
  });

  it('refuse to build with an origin that is not an environment and a table name', () => {
    expect(() => buildCheckpoint(unsigned({ origin: { environment: 'x' } }), SIGNER)).toThrow(CheckpointInvariantError);
    expect(() => buildCheckpoint(unsigned({ origin: { environment: 'prod', table: 't' } }), SIGNER)).toThrow(
      CheckpointInvariantError,
    );
  });
});

describe('exports', () => {
  it('round-trip a ledger and its checkpoints byte for byte', async () => {
    const store = new MemoryLedgerStore();
    await fill(store, 3, 'log-b');
    await fill(store, 4, 'log-a');
    await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: POLICY,
      origin: ORIGIN,
      time: '2026-12-02T14:00:00Z',
    });
    let text = '';
    for await (const line of ledgerExportLines(store, ORIGIN)) text += line;
    const back = readLedgerExport(utf8(text));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value.origin).toEqual(ORIGIN);
    expect(back.value.entries).toEqual(
      [...store.snapshot('log-a'), ...store.snapshot('log-b')].map((e) => ({ ...e, projection: { ...e.projection } })),
    );
    for (const e of back.value.entries) expect(parseStoredEntry(e.body).ok).toBe(true);
    const cps = readCheckpointExport(utf8(await exportCheckpoints(store, ['log-a', 'log-b'])));
    expect(cps.ok && cps.value.map((c) => c.treeSize)).toEqual([4]);
  });

  it('carry tampered entry bytes unchanged for the verifier to judge', async () => {
    const store = new MemoryLedgerStore();
    await fill(store, 1);
    const e = store.snapshot('log-a')[0] as { body: string };
    const tampered = e.body.replace('{"correlation"', '{"correlation":null,"correlation"');
    const line = `${canonicalize({ body: tampered, logId: 'log-a', projection: { entryHash: 'x', kind: 'disposition', requestId: 'r' }, seq: 0 })}\n`;
    const r = readLedgerExport(utf8(`{"format":"docket.ledger-export/1","origin":null}\n${line}`));
    expect(r.ok && r.value.entries[0]?.body).toBe(tampered);
    const parsed = parseStoredEntry(tampered);
    expect(parsed.ok ? 'ok' : parsed.error.code).toBe('malformed');
  });

  it('refuse an export with a missing header, a broken line or a missing final newline, naming the line', () => {
    const header = '{"format":"docket.ledger-export/1","origin":null}\n';
    const cases: [string, number][] = [
      ['', 1],
      ['{"format":"docket.ledger-export/2","origin":null}\n', 1],
      [`${header}{"body":"x"}\n`, 2],
      [`${header}{"body":"x","logId":"l","projection":{"entryHash":"h","kind":"k","requestId":"r"},"seq":0}`, 2],
      [
        `${header}{"body":"x","body":"y","logId":"l","projection":{"entryHash":"h","kind":"k","requestId":"r"},"seq":0}\n`,
        2,
      ],
    ];
    for (const [text, line] of cases) {
      const r = readLedgerExport(utf8(text));
      expect(r.ok ? 'ok' : [r.error.code, r.error.line]).toEqual(['export-malformed', line]);
    }
  });
});
