import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/verify.js';
import { memoryIo } from '../../cli/io.js';
import {
  buildOfflinePage,
  filesOfScenario,
  openOfflinePage,
  verifyInPage,
  type OfflineBrowser,
} from './offline-browser.js';

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
    const got = await verifyInPage(browser.page, filesOfScenario('edited-signed-body-tail'), true);
    expect(got.verifyOk).toBe('false');
    const groups = await browser.page.$$eval('#findings .group', (gs) => gs.map((g) => g.getAttribute('data-status')));
    expect(groups).toContain('signature-mismatch');
    const honest = await verifyInPage(browser.page, filesOfScenario('baseline'), true);
    expect(honest.verifyOk).toBe('true');
  });

  it('keeps Verify disabled until every chosen file is read: a slow checkpoints read still counts', async () => {
    await browser.open();
    // The checkpoints file takes 1.5 s to read, as a large export on a slow disk might.
    await browser.page.evaluate(`(() => {
      const arrayBuffer = File.prototype.arrayBuffer;
      File.prototype.arrayBuffer = function () {
        const bytes = arrayBuffer.call(this);
        return this.name === 'checkpoints.json' ? new Promise((r) => setTimeout(() => r(bytes), 1500)) : bytes;
      };
    })()`);
    const files = filesOfScenario('baseline');
    await browser.page.setInputFiles('#ledger', files.ledger);
    await browser.page.setInputFiles('#policy', files.policy);
    await browser.page.setInputFiles('#checkpoints', files.checkpoints!);
    expect(await browser.page.isDisabled('#verify')).toBe(true);
    await browser.page.waitForSelector('#verify:enabled', { timeout: 10_000 });
    await browser.page.click('#verify');
    await browser.page.waitForSelector('#verdict[data-verify-ok="true"], #verdict[data-verify-ok="false"]');
    const output = JSON.parse((await browser.page.textContent('#output')) ?? '{}') as {
      summary?: { checkpoints?: number };
    };
    expect(output.summary?.checkpoints).toBeGreaterThan(0);
    expect(await browser.page.getAttribute('#verdict', 'data-verify-ok')).toBe('true');
  });
});
