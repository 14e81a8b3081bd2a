/**
 * `docket witness` from the command line without a stack: the file path (a ledger export and a notes export), keygen,
 * and `serve` answering add-checkpoint over HTTP on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as witness } from '../../cli/commands/witness.js';
import { run as verify } from '../../cli/commands/verify.js';
import { buildLog, exportText, K1, policyText, PROD } from '../../conformance/ledger/fixtures.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { exportCheckpoints } from '../../core/ledger/export/export.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-witness-cli-'));
const f = (n: string) => join(dir, n);
const POLICY = policyText(['log-a'], [{ keys: K1, validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }] }]);
const parsed = readTrustPolicy(utf8Bytes(POLICY));
if (!parsed.ok) throw new Error(parsed.error.detail);
const TRUST: TrustPolicy = parsed.value;

async function cli(argv: string[]) {
  const io = memoryIo();
  const code = await witness(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** A ledger of n entries of log-a checkpointed at n, as export files. */
async function files(n: number, tag: string, over: (seq: number) => Record<string, unknown> = () => ({})) {
  const store = new MemoryLedgerStore();
  const log = buildLog('log-a', 6, () => K1, over).slice(0, n);
  for (const e of log) await store.putEntryIfAbsent(e);
  const run = await runCheckpoints({
    store,
    signer: signerFromKeyPair(K1),
    policy: TRUST,
    logIds: ['log-a'],
    origin: PROD,
    time: '2026-12-01T12:00:00Z',
  });
  writeFileSync(f(`ledger-${tag}.jsonl`), exportText(log));
  writeFileSync(f(`notes-${tag}.json`), run.notes!);
  writeFileSync(f(`checkpoints-${tag}.json`), await exportCheckpoints(store, ['log-a']));
}

describe('docket witness on files', () => {
  it('keygen writes a 0600 key and a witness policy, and the key never reaches stdout', async () => {
    const r = await cli(['keygen', '--name', 'files.example/w', '--out', f('wk.json'), '--policy-out', f('wp.json')]);
    expect(r.code).toBe(0);
    expect(statSync(f('wk.json')).mode & 0o777).toBe(0o600);
    expect(r.out).not.toContain((JSON.parse(readFileSync(f('wk.json'), 'utf8')) as { seed: string }).seed);
    expect((await cli(['keygen', '--name', 'has space'])).code).toBe(1);
    expect((await cli(['keygen'])).code).toBe(64);
    expect((await cli(['keygen', '--name', 'x.example/w', '--out', f('other.json'), '--max-age', '1.5'])).code).toBe(
      64,
    );
  });

  it('cosigns an export, then refuses the same log rolled back to a smaller checkpoint (exit 1, rollback)', async () => {
    writeFileSync(f('policy.json'), POLICY);
    await files(6, 'full');
    await files(3, 'rolled');
    const base = ['--key', f('wk.json'), '--state', f('state.json'), '--policy', f('policy.json')];
    const ok = await cli([...base, '--export', f('ledger-full.jsonl'), '--notes', f('notes-full.json')]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out.trim())).toMatchObject({ logId: 'log-a', treeSize: 6, outcome: 'cosigned' });
    expect(readFileSync(f('notes-full.json'), 'utf8')).toContain('files.example/w');

    const v = memoryIo();
    const vc = await verify(
      [
        '--export',
        f('ledger-full.jsonl'),
        '--checkpoints',
        f('checkpoints-full.json'),
        '--policy',
        f('policy.json'),
        '--witnesses',
        f('wp.json'),
        '--cosigned',
        f('notes-full.json'),
      ],
      v,
    );
    expect(vc, v.out()).toBe(0);

    const bad = await cli([...base, '--export', f('ledger-rolled.jsonl'), '--notes', f('notes-rolled.json')]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out.trim())).toMatchObject({
      logId: 'log-a',
      treeSize: 3,
      outcome: 'refused',
      finding: 'rollback',
      status: 400,
      witnessSize: 6,
    });

    const v2 = memoryIo();
    const vc2 = await verify(
      [
        '--export',
        f('ledger-rolled.jsonl'),
        '--checkpoints',
        f('checkpoints-rolled.json'),
        '--policy',
        f('policy.json'),
        '--witnesses',
        f('wp.json'),
        '--cosigned',
        f('state.json'),
      ],
      v2,
    );
    expect(vc2).toBe(1);
    expect(JSON.parse(v2.out()).findings).toContainEqual({ code: 'rollback', logId: 'log-a', treeSize: 6, entries: 3 });
  });

  it('verify --witnesses gives no verdict (exit 2) for an unreadable witness policy or notes file', async () => {
    const args = [
      '--export',
      f('ledger-full.jsonl'),
      '--checkpoints',
      f('checkpoints-full.json'),
      '--policy',
      f('policy.json'),
    ];
    writeFileSync(f('junk.json'), '{"format":"nope"}');
    const a = memoryIo();
    expect(await verify([...args, '--witnesses', f('junk.json')], a)).toBe(2);
    expect(a.out() + a.err()).toContain('witness-policy-unreadable');
    const b = memoryIo();
    expect(await verify([...args, '--witnesses', f('wp.json'), '--cosigned', f('junk.json')], b)).toBe(2);
    expect(b.out() + b.err()).toContain('notes-unreadable');
  });

  it('verify refuses a --now that is not an RFC 3339 UTC time, and --cosigned without --witnesses (exit 64)', async () => {
    const args = ['--export', f('ledger-full.jsonl'), '--policy', f('policy.json')];
    expect(await verify([...args, '--witnesses', f('wp.json'), '--now', 'yesterday'], memoryIo())).toBe(64);
    expect(await verify([...args, '--cosigned', f('notes-full.json')], memoryIo())).toBe(64);
  });

  it('serve answers add-checkpoint on 127.0.0.1 and stops on SIGTERM', async () => {
    const io = memoryIo();
    const done = witness(
      ['serve', '--key', f('wk.json'), '--state', f('served.json'), '--policy', f('policy.json'), '--port', '0'],
      io,
    );
    let url = '';
    for (let i = 0; i < 100 && url === ''; i++) {
      await new Promise((r) => setTimeout(r, 20));
      if (io.out() !== '') url = (JSON.parse(io.out().trim()) as { url: string }).url;
    }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/add-checkpoint$/);
    const notes = JSON.parse(readFileSync(f('notes-rolled.json'), 'utf8')) as { notes: { note: string }[] };
    const r = await fetch(url, { method: 'POST', body: `old 0\n\n${notes.notes[0]!.note}` });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/^— files\.example\/w [A-Za-z0-9+/=]+\n$/);
    const again = await fetch(url, { method: 'POST', body: `old 0\n\n${notes.notes[0]!.note}` });
    expect([again.status, again.headers.get('content-type'), await again.text()]).toEqual([
      409,
      'text/x.tlog.size',
      '3\n',
    ]);
    expect((await fetch(url.replace('add-checkpoint', 'other'), { method: 'POST', body: '' })).status).toBe(404);
    process.emit('SIGTERM');
    expect(await done).toBe(0);
  });

  it('witness --url against witness serve: a fork of the same size is refused as equivocation (422) after one retry', async () => {
    writeFileSync(f('policy.json'), POLICY);
    await files(6, 'same');
    // The key holder rewrites entries 2–5 and checkpoints the fork at the same size.
    await files(6, 'forked', (seq) => (seq >= 2 ? { requestId: `log-a-forked-${seq}` } : {}));
    const io = memoryIo();
    const served = witness(
      ['serve', '--key', f('wk.json'), '--state', f('served-fork.json'), '--policy', f('policy.json'), '--port', '0'],
      io,
    );
    let url = '';
    for (let i = 0; i < 100 && url === ''; i++) {
      await new Promise((r) => setTimeout(r, 20));
      if (io.out() !== '') url = (JSON.parse(io.out().trim()) as { url: string }).url;
    }
    const client = (tag: string) =>
      cli([
        '--url',
        url,
        '--policy',
        f('policy.json'),
        '--export',
        f(`ledger-${tag}.jsonl`),
        '--notes',
        f(`notes-${tag}.json`),
      ]);
    const first = await client('same');
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out.trim())).toMatchObject({ logId: 'log-a', treeSize: 6, outcome: 'cosigned' });
    const fork = await client('forked');
    expect(fork.code).toBe(1);
    expect(JSON.parse(fork.out.trim())).toMatchObject({
      logId: 'log-a',
      treeSize: 6,
      outcome: 'refused',
      finding: 'equivocation',
      status: 422,
    });
    process.emit('SIGTERM');
    expect(await served).toBe(0);
  });
});
