/**
 * The run's template service (test/lanes/template-service.ts) synthesizes each configuration once, however many
 * stack files ask for it at once, and reports a refused configuration to every asker without remembering it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTemplateService, type TemplateService } from './template-service.js';

let service: TemplateService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const ask = (url: string, config: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(config) });

describe('the template service', () => {
  it('synthesizes a configuration once for many concurrent askers, and a second configuration once more', async () => {
    const asked: string[] = [];
    service = await startTemplateService(async (config) => {
      asked.push(String(config.stage));
      await new Promise((r) => setTimeout(r, 50)); // askers arrive while the first synthesis is still running
      return { Resources: { Stage: String(config.stage) } };
    });
    const answers = await Promise.all([1, 2, 3].map(() => ask(service!.url, { stage: 'e2e' })));
    for (const a of answers) expect(await a.json()).toEqual({ Resources: { Stage: 'e2e' } });
    expect(await (await ask(service.url, { stage: 'forge' })).json()).toEqual({ Resources: { Stage: 'forge' } });
    expect(asked).toEqual(['e2e', 'forge']);
  });

  it('answers a configuration the synthesis refuses with 422 and the reason, and tries it again on the next ask', async () => {
    let calls = 0;
    service = await startTemplateService(async () => {
      calls += 1;
      throw new Error('stage must match /^[a-z]/');
    });
    for (let i = 0; i < 2; i++) {
      const r = await ask(service.url, { stage: 'Bad' });
      expect(r.status).toBe(422);
      expect(await r.text()).toBe('stage must match /^[a-z]/');
    }
    expect(calls).toBe(2);
  });
});
