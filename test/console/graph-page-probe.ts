/**
 * Opens a console page that draws a graph run and reads back what a hostile document could have done to it: the
 * dialogs it raised, script it ran (`window.__pwned`), CSP violations, elements or handlers it injected, and the text
 * and links of the drawing. Shared by the `/graph-run` page's and a graph-run entry page's Chromium tests.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface GraphPageState {
  readonly pwned: unknown;
  readonly violations: string[];
  readonly text: string;
  readonly svgText: string;
  readonly injected: number;
  readonly handlers: number;
  readonly hrefs: string[];
  readonly dialogs: string[];
}

/** Goes to `url`, waits for `ready`, and probes the page's `main`. */
export async function probeGraphPage(page: Page, url: string, ready: string): Promise<GraphPageState> {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
  `);
  await page.goto(url);
  await page.waitForSelector(ready);
  const state = (await page.evaluate(`(() => ({
    pwned: window.__pwned ?? null,
    violations: window.__violations,
    text: document.querySelector('main').textContent ?? '',
    svgText: [...document.querySelectorAll('main svg text, main svg title')].map((t) => t.textContent).join('\\n'),
    injected: document.querySelectorAll('main script, main img, main iframe, main object, main foreignObject').length,
    handlers: [...document.querySelectorAll('main *')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    hrefs: [...document.querySelectorAll('main svg a')].map((a) => a.getAttribute('href')),
  }))()`)) as Omit<GraphPageState, 'dialogs'>;
  return { ...state, dialogs };
}

/**
 * What a drawing of hostile ids must leave true: nothing ran, was raised or injected, every link stays inside the
 * page, and `shown` (the ids and targets) is there as text, in the drawing and on the page.
 */
export function expectInert(s: GraphPageState, shown: { readonly inSvg: string[]; readonly onPage: string[] }): void {
  expect(s.pwned).toBeNull();
  expect(s.dialogs).toEqual([]);
  expect(s.violations).toEqual([]);
  expect(s.injected).toBe(0);
  expect(s.handlers).toBe(0);
  for (const h of s.hrefs) expect(h).toMatch(/^#disposition-\d+$/);
  for (const t of shown.inSvg) expect(s.svgText).toContain(t);
  for (const t of shown.onPage) expect(s.text).toContain(t);
}
