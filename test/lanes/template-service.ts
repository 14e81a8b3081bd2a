/**
 * vitest globalSetup: one CDK synthesis per distinct configuration per run, shared by every test file that starts a
 * stack (docs/adr/0320-test-lanes.md). Loading aws-cdk-lib costs about a second of CPU and each e2e file used to pay
 * it; here the main vitest process loads it once, on the first request, and answers each worker's request for a
 * template from a memo keyed by the configuration. A run of the unit lane alone never loads it.
 *
 * Workers reach the service over loopback HTTP (its URL handed out with vitest's provide/inject): a template is
 * plain JSON, and forks share no memory with this process.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's template service; POST a DocketConfig (JSON), get the synthesized template (JSON). */
    docketTemplateService: string;
  }
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface TemplateService {
  readonly url: string;
  close(): Promise<void>;
}

/** A loopback service answering each configuration with `synthesize`'s template, computed once per configuration. */
export async function startTemplateService(
  synthesize: (config: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<TemplateService> {
  const memo = new Map<string, Promise<string>>();
  const server = createServer((req, res) => {
    void bodyOf(req).then(async (configText) => {
      let template = memo.get(configText);
      if (template === undefined) {
        template = (async () => JSON.stringify(await synthesize(JSON.parse(configText) as Record<string, unknown>)))();
        memo.set(configText, template);
      }
      try {
        const text = await template;
        res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      } catch (e) {
        memo.delete(configText); // a refused configuration is reported to each asker, never remembered
        res.writeHead(422, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : String(e));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/template`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const service = await startTemplateService(async (config) => {
    const { synthesizeTemplate } = await import('../../infra/synth.js');
    return synthesizeTemplate(config);
  });
  project.provide('docketTemplateService', service.url);
  return () => service.close();
}
