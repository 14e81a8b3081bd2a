/**
 * `docket handoffs` resolves --route against the route configuration before it touches any queue (ADR 0300): a key
 * that names no route queue would otherwise move every genuine handoff to a DLQ.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/handoffs.js';
import { memoryIo } from '../../cli/io.js';
import { K1, policyText } from '../../conformance/ledger/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-handoffs-routes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const policy = join(dir, 'policy.json');
writeFileSync(policy, policyText(['log-a'], [{ keys: K1, validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }] }]));
// An endpoint nothing listens on: reaching it would fail with exit 1, not the codes below.
const stack = ['--endpoint', 'http://127.0.0.1:9', '--stage', 'prod', '--policy', policy];

async function handoffs(argv: string[]) {
  const io = memoryIo();
  const code = await run([...argv, ...stack], io);
  return { code, err: io.err() };
}

describe('docket handoffs --route', () => {
  it('is a usage error, before any queue is read, when the key names no queue of the stage’s routes', async () => {
    const r = await handoffs(['--route', 'data-steward']);
    expect(r.code).toBe(64);
    expect(r.err).toContain('--route data-steward is no queue key of the route configuration (review, oversight');
  });

  it('takes the deployment’s routes from --routes, and refuses a file that is not a valid route list', async () => {
    const routes = join(dir, 'routes.json');
    writeFileSync(routes, JSON.stringify([{ kind: 'queue', name: 'Review', queue: 'review' }]));
    expect((await handoffs(['--route', 'oversight', '--routes', routes])).code).toBe(64);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ kind: 'person', name: 'x', queue: 'Bad Key' }]));
    const r = await handoffs(['--route', 'review', '--routes', bad]);
    expect(r.code).toBe(66);
    expect(r.err).toMatch(/routes\[0\]\.kind must be one of/);
    writeFileSync(bad, '{"routes": 3}');
    expect((await handoffs(['--route', 'review', '--routes', bad])).err).toContain(
      'the route configuration is an array of {kind, name, queue}',
    );
  });
});
