/**
 * The offline page over the whole ledger tamper corpus, three times (WebCrypto in both modes, @noble/ed25519 with
 * --all-signatures): every scenario's verdict in Chromium is exactly what `docket verify` prints. Minutes of browser
 * work, so it runs in the soak lane (docs/adr/0320-test-lanes.md); offline.browser.test.ts keeps the page's quick
 * checks in the browser lane.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildOfflinePage,
  cliVerdictOf,
  filesOfScenario,
  tamperScenarioNames,
  openOfflinePage,
  verifyInPage,
  type OfflineBrowser,
} from './offline-browser.js';

describe('the offline verification page in Chromium over the tamper corpus', () => {
  let browser: OfflineBrowser;
  beforeAll(async () => {
    await buildOfflinePage();
    browser = await openOfflinePage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });

  // WebCrypto in both modes; @noble/ed25519 (a browser without WebCrypto Ed25519) where it checks every signature.
  const runs = [
    { engine: 'webcrypto', modes: [false, true] },
    { engine: 'noble', modes: [true] },
  ] as const;
  const cliOutputs = new Map<string, Promise<{ line: string; exit: number }>>();
  const cliOf = (name: string, all: boolean): Promise<{ line: string; exit: number }> => {
    const key = `${name} ${all}`;
    if (!cliOutputs.has(key)) cliOutputs.set(key, cliVerdictOf(name, all));
    return cliOutputs.get(key) as Promise<{ line: string; exit: number }>;
  };
  for (const { engine, modes } of runs) {
    const which = modes.length === 2 ? 'in both modes' : 'with --all-signatures';
    it(`reports exactly what docket verify prints for every tamper corpus scenario ${which}, with Ed25519 through ${engine}`, async () => {
      expect(tamperScenarioNames.length).toBeGreaterThanOrEqual(40);
      const mismatches: string[] = [];
      let secondPasses = 0;
      for (const name of tamperScenarioNames) {
        await browser.open(`?engine=${engine}`);
        for (const allSignatures of modes) {
          const expected = await cliOf(name, allSignatures);
          const got = await verifyInPage(browser.page, filesOfScenario(name), allSignatures);
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
});
