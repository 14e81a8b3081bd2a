/**
 * The pipeline commands against a running local stack, in-process (cli/io.ts memoryIo), exactly as from a shell:
 * publish, submit (one request and a JSONL file), show, tail, handoffs, checkpoint.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as submit } from '../../cli/commands/submit.js';
import { run as show } from '../../cli/commands/show.js';
import { run as tail } from '../../cli/commands/tail.js';
import { run as handoffs } from '../../cli/commands/handoffs.js';
import { run as checkpoint } from '../../cli/commands/checkpoint.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { startE2e, type E2eWorld } from './harness.js';

/** Where `docket handoffs` remembers what it printed: a file of this test's own, never the working directory's. */
const SEEN = ['--seen', join(mkdtempSync(join(tmpdir(), 'docket-seen-')), 'handoffs-seen.json')];

let w: E2eWorld;
let stackFlags: string[];
const dir = mkdtempSync(join(tmpdir(), 'docket-cli-e2e-'));
const ex = (p: string) => join(process.cwd(), 'examples', p);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  w = await startE2e({ stage: 'cli' });
  stackFlags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'cli'];
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(cmd: (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>, argv: string[]) {
  const io = memoryIo();
  const code = await cmd([...argv, ...stackFlags], io);
  return { code, out: io.out(), err: io.err() };
}

async function shown(id: string): Promise<{ code: number; out: string; err: string }> {
  for (let i = 0; i < 100; i++) {
    const r = await cli(show, [id, '--json']);
    if (r.code === 0) return r;
    await sleep(200);
  }
  throw new Error(`${id} never recorded`);
}

describe('docket publish, submit, show, handoffs, tail and checkpoint over the local stack', () => {
  it('publishes a conformant pack by digest and alias and refuses a non-conformant one with diagnostics', async () => {
    const ok = await cli(publish, [ex('vendor-onboarding-target.json')]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(
      /^sha256:[0-9a-f]{64} {2}https:\/\/packs\.example\.org\/procurement\/vendor-onboarding@2\.1\.0\n$/,
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"specVersion":"0.3.0","id":"x"}');
    const refused = await cli(publish, [bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/not conformant \(structural\)/);
  });

  it('submits one request by alias, shows its entry as JSON and as text, and hands the handoff to the route consumer', async () => {
    const s = await cli(submit, [
      '--pack',
      'https://packs.example.org/procurement/vendor-onboarding@2.1.0',
      '--facts',
      ex('requests/vendor-no-match.facts.json'),
      '--evidence',
      ex('requests/vendor-certificate.evidence.json'),
      '--id',
      'cli-1',
    ]);
    expect([s.code, s.out]).toEqual([0, 'cli-1\n']);
    const r = await shown('cli-1');
    const shownEntry = JSON.parse(r.out) as {
      entry: { kind: string; disposition: { kind: string }; requestId: string };
    };
    expect([shownEntry.entry.kind, shownEntry.entry.disposition.kind, shownEntry.entry.requestId]).toEqual([
      'disposition',
      'unresolved',
      'cli-1',
    ]);
    const text = await cli(show, ['cli-1']);
    expect(text.out).toMatch(/result {4}unresolved {2}reasons: no-match/);
    const route = ['--route', 'vendor-risk', '--json', ...SEEN, '--policy', w.policyPath, '--routes', w.routesPath];
    let received = '';
    for (let i = 0; i < 20 && !received.includes('cli-1'); i++) received += (await cli(handoffs, route)).out;
    expect(received).toContain('"verified":true,"handoffId":');
    expect(received).toContain('"requestId":"cli-1"');
    const again = await cli(handoffs, route);
    expect(again.out).not.toContain('"requestId":"cli-1"');
  });

  it('submits a JSONL file, printing one id per line and refusing a line that is not JSON without sending it', async () => {
    const file = join(dir, 'batch.jsonl');
    writeFileSync(
      file,
      `${readFileSync(ex('requests/vendor-low-risk.facts.json'), 'utf8').trim().replace(/^/, '{"facts":').concat(',"evidence":{"tax-certificate":"present"}}')}\nnot json\n{"facts":{},"requestId":"cli-jsonl-x"}\n`,
    );
    const s = await cli(submit, [
      '--file',
      file,
      '--pack',
      'https://packs.example.org/procurement/vendor-onboarding@2.1.0',
    ]);
    expect(s.code).toBe(1);
    const ids = s.out.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^batch-[0-9a-f]{8}-1$/);
    expect(ids[1]).toBe('cli-jsonl-x');
    expect(s.err).toMatch(/batch\.jsonl:2: not a strict JSON text/);
    for (const id of ids) expect((await shown(id)).code).toBe(0);
  });

  it('tails every entry from the start and writes a checkpoint export of every log', async () => {
    const t = await cli(tail, ['--from-start', '--once']);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/cli-1 {2}unresolved \[no-match\] handoff/);
    const key = join(dir, 'checkpoint-key.json');
    writeFileSync(key, signingKeyDocument(w.checkpointKeys));
    const policy = join(dir, 'trust-policy.json');
    writeFileSync(policy, w.policyText);
    const out = join(dir, 'checkpoints.json');
    const c = await cli(checkpoint, ['--key', key, '--policy', policy, '--out', out]);
    expect(c.err).not.toMatch(/refused/);
    expect(c.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('docket.checkpoint-export/1');
  });
});
