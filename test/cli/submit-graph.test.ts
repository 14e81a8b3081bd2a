/**
 * `docket submit --graph` command-line mistakes are usage errors (exit 64) before anything is read or sent; a bad
 * graph reference is refused (exit 1) before the stack is contacted.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

describe('docket submit --graph', () => {
  it('refuses --graph beside --pack, --facts or --file, and --inputs without --graph, with exit 64', async () => {
    for (const argv of [
      ['--graph', 'g@1', '--pack', 'p@1'],
      ['--graph', 'g@1', '--facts', 'f.json'],
      ['--graph', 'g@1', '--file', 'r.jsonl'],
      ['--pack', 'p@1', '--facts', 'f.json', '--inputs', 'i.json'],
    ]) {
      const r = await cli(['submit', ...argv]);
      expect(r.code, argv.join(' ')).toBe(64);
      expect(r.err).toMatch(/--graph|--inputs/);
    }
  });

  it('refuses a graph reference that is neither sha256:<hex> nor id@version, exit 1, sending nothing', async () => {
    const r = await cli(['submit', '--graph', 'not-a-reference', '--endpoint', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('is neither sha256:<64 hex> nor <id>@<version>');
  });

  it('lists --graph in its usage', async () => {
    const r = await cli(['submit', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('docket submit --graph <sha256:…|id@version> [--inputs <file>]');
  });
});
