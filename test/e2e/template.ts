/**
 * The synthesized template for an e2e stack: from the run's template service when vitest provides one
 * (test/lanes/template-service.ts: one synthesis per configuration per run), else synthesized here.
 */
import { inject } from 'vitest';
import type { DocketConfig } from '../../infra/config.js';

function serviceUrl(): string | undefined {
  try {
    return inject('docketTemplateService');
  } catch {
    return undefined; // not inside a vitest worker
  }
}

export async function templateFor(config: Partial<DocketConfig>): Promise<Record<string, unknown>> {
  const url = serviceUrl();
  if (url === undefined) {
    const { synthesizeTemplate } = await import('../../infra/synth.js');
    return synthesizeTemplate(config);
  }
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(config) });
  if (!res.ok) throw new Error(`the template service refused the configuration: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
