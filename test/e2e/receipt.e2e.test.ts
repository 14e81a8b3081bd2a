/**
 * Portable receipts over the local stack (started here on port 0): a demo request is submitted and recorded,
 * `docket receipt` says it is not checkpointed yet (exit 3), writes one with --checkpoint, and `docket verify-receipt`
 * judges it offline with the trust policy alone — ok with the submitted facts file, not ok with another one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as submit } from '../../cli/commands/submit.js';
import { run as show } from '../../cli/commands/show.js';
import { EXIT } from '../../cli/args.js';
import { run as receipt } from '../../cli/commands/receipt.js';
import { run as verifyReceipt } from '../../cli/commands/verify-receipt.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { startE2e, type E2eWorld } from './harness.js';
import { withBody } from '../../adapters/ledger-entry-item.js';
import { rewriteEntryAt } from '../adapters/entry-item-at.js';

const STAGE = 'receipt';
let w: E2eWorld;
let stackFlags: string[];
const dir = mkdtempSync(join(tmpdir(), 'docket-receipt-e2e-'));
const f = (name: string) => join(dir, name);
const ex = (p: string) => join(process.cwd(), 'examples', p);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Cmd = (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>;

async function cli(cmd: Cmd, argv: string[], stack = true) {
  const io = memoryIo();
  const code = await cmd([...argv, ...(stack ? stackFlags : [])], io);
  return { code, out: io.out(), err: io.err() };
}

async function recorded(id: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if ((await cli(show, [id, '--json'])).code === 0) return;
    await sleep(200);
  }
  throw new Error(`${id} never recorded`);
}

beforeAll(async () => {
  w = await startE2e({ stage: STAGE });
  stackFlags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', STAGE];
  writeFileSync(f('checkpoint-key.json'), signingKeyDocument(w.checkpointKeys));
  expect((await cli(publish, [ex('vendor-onboarding-target.json')])).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('docket receipt and docket verify-receipt over the local stack', () => {
  it('a demo request gets a receipt that verifies offline, and a different facts file is named', async () => {
    const facts = ex('requests/vendor-no-match.facts.json');
    const s = await cli(submit, [
      '--pack',
      'https://packs.example.org/procurement/vendor-onboarding@2.1.0',
      '--facts',
      facts,
      '--evidence',
      ex('requests/vendor-certificate.evidence.json'),
      '--id',
      'receipt-1',
    ]);
    expect(s.code, s.err).toBe(0);
    await recorded('receipt-1');

    const early = await cli(receipt, ['receipt-1', '--out', f('r.json')]);
    expect(early.code).toBe(EXIT.NOT_CHECKPOINTED);
    expect(early.err).toMatch(
      /no checkpoint of log \S+ covers seq 0 yet; the checkpoint function runs on the schedule rate\(15 minutes\)/,
    );

    const made = await cli(receipt, [
      'receipt-1',
      '--out',
      f('r.json'),
      '--checkpoint',
      '--key',
      f('checkpoint-key.json'),
      '--policy',
      w.policyPath,
    ]);
    expect(made.code, made.err).toBe(0);
    expect(JSON.parse(readFileSync(f('r.json'), 'utf8'))).toMatchObject({ format: 'docket.receipt/1' });

    // Offline: no stack flags, nothing but the receipt, the policy and the files.
    const ok = await cli(verifyReceipt, [f('r.json'), '--policy', w.policyPath, '--facts', facts], false);
    expect([ok.code, ok.out]).toEqual([0, '{"ok":true,"findings":[]}\n']);

    const other = ex('requests/vendor-low-risk.facts.json');
    const bad = await cli(verifyReceipt, [f('r.json'), '--policy', w.policyPath, '--facts', other], false);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toEqual({
      ok: false,
      findings: [
        {
          code: 'facts-digest-mismatch',
          recorded: sha256Hex(readFileSync(facts).toString('utf8').trim()),
          actual: sha256Hex(readFileSync(other)),
        },
      ],
    });

    const missing = await cli(verifyReceipt, [f('nope.json'), '--policy', w.policyPath], false);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('"code":"receipt-unreadable"');
  });

  it('an attacker who can write the ledger table but holds no key cannot get an ok receipt for a rewritten entry', async () => {
    // Runs after the test above: receipt-1 is recorded and covered by a signed checkpoint.
    const before = JSON.parse(readFileSync(f('r.json'), 'utf8')) as { entry: string };
    const entry = JSON.parse(before.entry) as { logId: string; seq: number; requestDigest: string };
    const table = w.env.LEDGER_TABLE!;
    // The attacker's edit: the recorded request digest becomes the digest of other facts; the signature stays.
    const forged = before.entry.replace(entry.requestDigest, sha256Hex('the attacker wrote this'));
    expect(forged).not.toBe(before.entry);
    await rewriteEntryAt(w.dynamodb, table, entry.logId, entry.seq, (a) => withBody(a, forged));

    // docket receipt builds from what the table now holds; the receipt it writes must not verify.
    const made = await cli(receipt, ['receipt-1', '--out', f('forged.json')]);
    expect(made.code, made.err).toBe(0);
    expect(JSON.parse(readFileSync(f('forged.json'), 'utf8'))).toMatchObject({ entry: forged });
    const judged = await cli(verifyReceipt, [f('forged.json'), '--policy', w.policyPath], false);
    expect(judged.code).toBe(1);
    const codes = (JSON.parse(judged.out) as { findings: { code: string }[] }).findings.map((x) => x.code);
    expect(codes).toEqual(expect.arrayContaining(['entry-signature-mismatch', 'inclusion-proof-invalid']));

    // The receipt written before the edit still verifies: a requester who kept it holds the signed truth.
    const kept = await cli(verifyReceipt, [f('r.json'), '--policy', w.policyPath], false);
    expect([kept.code, kept.out]).toEqual([0, '{"ok":true,"findings":[]}\n']);
  });
});
