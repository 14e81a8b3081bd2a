/**
 * Over the wire on two local stacks (started here on port 0): one deployed with the draft feature
 * rfc0008-quantifiers (infra/config.ts `draftFeatures`, passed to the evaluate function as DRAFT_FEATURES), one
 * without. The same RFC 0008 quantifier pack becomes a docket.ledger-entry/2 disposition naming the feature on the
 * first, and the structural refusal of today (a /1 pack-not-conformant entry) on the second; `docket verify` reports
 * draft-features-not-allowed under a policy that does not permit the feature and is ok under one that does
 * (ADR 0220, ADR 0221, ADR 0222).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { verifyUnder } from './verify-under.js';
import { startE2e, type E2eWorld } from './harness.js';
import { bodyOfItem, withBody } from '../../adapters/ledger-entry-item.js';
import { entryItemAt, rewriteEntryAt } from '../adapters/entry-item-at.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const PACK = readFileSync(join(process.cwd(), 'conformance', 'rfc0008', 'evaluation', 'packs', 'q-exists-ok.json'));
const FACTS = '{"xs":[{"ok":false},{"ok":true},{"ok":false}]}';
const Q = 'rfc0008-quantifiers';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'docket-draft-e2e-'));
let draft: E2eWorld;
let plain: E2eWorld;

beforeAll(async () => {
  [draft, plain] = await Promise.all([
    startE2e({ stage: 'draft', config: { draftFeatures: [Q] } }),
    startE2e({ stage: 'nodraft' }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([draft?.stop(), plain?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Publishes the pack's bytes, submits one request for it and returns the entry the stack records. */
async function evaluated(w: E2eWorld, requestId: string): Promise<SignedEntry> {
  const { digest } = await w.registry.putPack(new Uint8Array(PACK));
  const body = `{"format":"${REQUEST_FORMAT}","requestId":"${requestId}","pack":"sha256:${digest}","facts":${FACTS}}`;
  await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl('intake'), MessageBody: body }));
  for (let i = 0; i < 150; i++) {
    const at = await findPosition(w.store, requestId);
    let stored: { body: string } | null = null;
    if (at !== null) for await (const s of w.store.readEntries(at.logId, at.seq, at.seq)) stored = s;
    if (stored !== null) {
      const parsed = parseStoredEntry(stored.body);
      if (!parsed.ok) throw new Error(parsed.error.detail);
      return parsed.value.entry;
    }
    await sleep(200);
  }
  throw new Error(`${requestId} never recorded`);
}

describe('draft features recorded over the wire', () => {
  it('a stack started with the opt-in records a quantifier pack as a /2 disposition naming the feature', async () => {
    const e = await evaluated(draft, 'draft-1');
    expect(e.format).toBe('docket.ledger-entry/2');
    expect(e.draftFeatures).toEqual([Q]);
    expect(e.kind).toBe('disposition');
    if (e.kind === 'disposition') expect(e.disposition).toMatchObject({ kind: 'outcome', outcomeId: 'yes' });
  });

  it('docket verify reports draft-features-not-allowed under a policy that does not permit it, ok under one that does', async () => {
    await evaluated(draft, 'draft-2');
    const permitting = trustPolicyDocument({
      keys: draft.keys,
      checkpointKey: draft.checkpointKeys,
      logIds: JSON.parse(draft.env.LOG_IDS!) as string[],
      environment: 'draft',
      table: draft.env.LEDGER_TABLE!,
      evaluatorBuilds: ['e'.repeat(64)],
      draftFeatures: [Q],
    });
    expect(JSON.parse(permitting)).toMatchObject({ format: 'docket.trust-policy/3' });
    const ok = await verifyUnder(draft, { stage: 'draft', dir, checkpointPolicy: permitting, policy: permitting });
    expect(ok).toMatchObject({ exitCode: 0, verdict: { ok: true, findings: [] } });
    // The harness's policy is a docket.trust-policy/2, written as if before draft features existed: it permits none.
    const forbidding = await verifyUnder(draft, {
      stage: 'draft',
      dir,
      checkpointPolicy: permitting,
      policy: draft.policyText,
    });
    expect(forbidding.exitCode).toBe(1);
    expect(forbidding.verdict.findings.map((f) => f.code)).toEqual([
      'draft-features-not-allowed',
      'draft-features-not-allowed',
    ]);
  });

  it('a table writer without the key who rewrites a /2 entry as /1, to hide the draft grammar from a forbidding policy, is exposed', async () => {
    // Runs after the test above: draft-2 is recorded and covered by the checkpoints it wrote to checkpoints.json.
    const at = (await findPosition(draft.store, 'draft-2'))!;
    const table = draft.env.LEDGER_TABLE!;
    const held = await entryItemAt(draft.dynamodb, table, at.logId, at.seq);
    const body = JSON.parse(bodyOfItem(held.attributes)) as Record<string, unknown>;
    expect(body.draftFeatures).toEqual([Q]);
    delete body.draftFeatures;
    const downgraded = canonicalText({ ...body, format: 'docket.ledger-entry/1' });
    await rewriteEntryAt(draft.dynamodb, table, at.logId, at.seq, (a) => withBody(a, downgraded));
    const io = memoryIo();
    const { run } = await import('../../cli/commands/verify.js');
    const flags = ['--endpoint', draft.stack.endpoint, '--region', draft.stack.region, '--stage', 'draft'];
    writeFileSync(join(dir, 'policy.json'), draft.policyText);
    const files = ['--policy', join(dir, 'policy.json'), '--checkpoints', join(dir, 'checkpoints.json')];
    // Default mode: the covering checkpoint's root no longer matches the rewritten leaf.
    const quick = memoryIo();
    expect(await run([...flags, ...files], quick)).toBe(1);
    expect(JSON.parse(quick.out())).toMatchObject({ ok: false });
    expect(await run([...flags, ...files, '--all-signatures'], io)).toBe(1);
    const findings = (JSON.parse(io.out()) as { findings: { code: string; logId: string; seq: number }[] }).findings;
    // The rewritten entry no longer passes as honest: its signature covers the /2 body it replaced.
    expect(findings).toContainEqual(
      expect.objectContaining({ code: 'signature-mismatch', logId: at.logId, seq: at.seq }),
    );
  });

  it('the same pack on a stack without the opt-in is refused as today: a /1 pack-not-conformant entry', async () => {
    const e = await evaluated(plain, 'plain-1');
    expect(e.format).toBe('docket.ledger-entry/1');
    expect(Object.hasOwn(e, 'draftFeatures')).toBe(false);
    expect(e).toMatchObject({ kind: 'evaluation-error', error: { class: 'pack-not-conformant', phase: 'preflight' } });
  });
});
