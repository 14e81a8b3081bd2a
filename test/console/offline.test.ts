import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/verify.js';
import { memoryIo } from '../../cli/io.js';
import { buildOfflinePage, openOfflinePage, verifyInPage, type OfflineBrowser } from './offline-browser.js';

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');
const names = readdirSync(SCENARIOS)
  .filter((n) => statSync(join(SCENARIOS, n)).isDirectory())
  .sort();

function filesOf(name: string): { ledger: string; policy: string; checkpoints?: string; markers?: string } {
  const p = (f: string) => join(SCENARIOS, name, f);
  return {
    ledger: p('ledger.jsonl'),
    policy: p('policy.json'),
    ...(existsSync(p('checkpoints.json')) ? { checkpoints: p('checkpoints.json') } : {}),
    ...(existsSync(p('markers.json')) ? { markers: p('markers.json') } : {}),
  };
}

/** What `docket verify --export …` prints for a scenario: its one stdout line, and its exit code. */
async function cli(name: string, allSignatures: boolean): Promise<{ line: string; exit: number }> {
  const f = filesOf(name);
  const argv = ['--export', f.ledger, '--policy', f.policy];
  if (f.checkpoints !== undefined) argv.push('--checkpoints', f.checkpoints);
  if (f.markers !== undefined) argv.push('--markers', f.markers);
  if (allSignatures) argv.push('--all-signatures');
  const io = memoryIo();
  const exit = await run(argv, io);
  return { line: io.out().trimEnd(), exit };
}

describe('the offline verification page in Chromium', () => {
  let browser: OfflineBrowser;
  beforeAll(async () => {
    await buildOfflinePage();
    browser = await openOfflinePage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('carries a strict Content-Security-Policy that forbids every connection', async () => {
    await browser.open();
    const csp = await browser.page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('__DOCKET_CSP__');
  });

  // WebCrypto in both modes; @noble/ed25519 (a browser without WebCrypto Ed25519) where it checks every signature.
  const runs = [
    { engine: 'webcrypto', modes: [false, true] },
    { engine: 'noble', modes: [true] },
  ] as const;
  const cliOutputs = new Map<string, Promise<{ line: string; exit: number }>>();
  const cliOf = (name: string, all: boolean): Promise<{ line: string; exit: number }> => {
    const key = `${name} ${all}`;
    if (!cliOutputs.has(key)) cliOutputs.set(key, cli(name, all));
    return cliOutputs.get(key) as Promise<{ line: string; exit: number }>;
  };
  for (const { engine, modes } of runs) {
    const which = modes.length === 2 ? 'in both modes' : 'with --all-signatures';
    it(`reports exactly what docket verify prints for every tamper corpus scenario ${which}, with Ed25519 through ${engine}`, async () => {
      expect(names.length).toBeGreaterThanOrEqual(40);
      const mismatches: string[] = [];
      let secondPasses = 0;
      for (const name of names) {
        await browser.open(`?engine=${engine}`);
        for (const allSignatures of modes) {
          const expected = await cliOf(name, allSignatures);
          const got = await verifyInPage(browser.page, filesOf(name), allSignatures);
          expect(got.engine, name).toBe(engine);
          if (got.secondPass) secondPasses += 1;
          const label = `${name}${allSignatures ? ' --all-signatures' : ''}`;
          if (got.output !== expected.line)
            mismatches.push(`${label}\n  page: ${got.output}\n  cli:  ${expected.line}`);
          if (got.verifyOk !== String(expected.exit === 0)) mismatches.push(`${label}: data-verify-ok ${got.verifyOk}`);
        }
      }
      expect(mismatches).toEqual([]);
      // The corpus holds forged signatures, so the speculative WebCrypto run must have needed its second pass.
      if (engine === 'webcrypto') expect(secondPasses).toBeGreaterThan(0);
      expect(browser.refused).toEqual([]);
      expect(await browser.cspViolations()).toEqual([]);
    }, 600_000);
  }

  it('reports exactly what docket verify --witnesses prints for every witness corpus verify scenario, in both modes', async () => {
    const WITNESS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'witness');
    const scenarios = readdirSync(WITNESS).filter((n) => existsSync(join(WITNESS, n, 'witness-policy.json')));
    expect(scenarios.length).toBeGreaterThanOrEqual(5);
    const mismatches: string[] = [];
    for (const name of scenarios) {
      const p = (f: string) => join(WITNESS, name, f);
      const expected = JSON.parse(readFileSync(p('expected.json'), 'utf8')) as { verify: { now: number } };
      const now = new Date(expected.verify.now * 1000).toISOString().replace('.000Z', 'Z');
      await browser.open();
      for (const allSignatures of [false, true]) {
        const argv = [
          '--export',
          p('ledger.jsonl'),
          '--policy',
          p('policy.json'),
          '--checkpoints',
          p('checkpoints.json'),
        ];
        argv.push('--witnesses', p('witness-policy.json'), '--cosigned', p('cosigned.json'), '--now', now);
        if (allSignatures) argv.push('--all-signatures');
        const io = memoryIo();
        const exit = await run(argv, io);
        const got = await verifyInPage(
          browser.page,
          {
            ledger: p('ledger.jsonl'),
            policy: p('policy.json'),
            checkpoints: p('checkpoints.json'),
            witnesses: p('witness-policy.json'),
            cosigned: [p('cosigned.json')],
            now,
          },
          allSignatures,
        );
        if (got.output !== io.out().trimEnd())
          mismatches.push(`${name} ${allSignatures}\n  page: ${got.output}\n  cli:  ${io.out()}`);
        if (got.verifyOk !== String(exit === 0))
          mismatches.push(`${name} ${allSignatures}: data-verify-ok ${got.verifyOk}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('says data-verify-ok="false" with the finding when one entry of an honest ledger is tampered', async () => {
    await browser.open();
    const got = await verifyInPage(browser.page, filesOf('edited-signed-body-tail'), true);
    expect(got.verifyOk).toBe('false');
    const groups = await browser.page.$$eval('#findings .group', (gs) => gs.map((g) => g.getAttribute('data-status')));
    expect(groups).toContain('signature-mismatch');
    const honest = await verifyInPage(browser.page, filesOf('baseline'), true);
    expect(honest.verifyOk).toBe('true');
  });
});
