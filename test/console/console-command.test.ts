/**
 * `docket console` as a command: its usage, `--static` when the offline page is or is not built, and a source that
 * cannot be read. The server itself is tested in server.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run } from '../../cli/commands/console.js';
import { defaultDistDir } from '../../cli/console/server.js';

describe('docket console', () => {
  it('prints its usage with --help and refuses a bad port', async () => {
    const help = memoryIo();
    expect(await run(['--help'], help)).toBe(0);
    expect(help.out()).toContain('docket console [--port <n>]');
    const bad = memoryIo();
    expect(await run(['--port', 'eighty'], bad)).toBe(64);
    expect(await run(['--port', '70000'], memoryIo())).toBe(64);
  });

  it('says the offline page is not built, or copies it, with --static', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-console-static-'));
    const built = join(defaultDistDir(), 'offline.html');
    const hadOne = existsSync(built);
    try {
      if (!hadOne) {
        const io = memoryIo();
        expect(await run(['--static', dir], io)).toBe(66);
        expect(io.err()).toContain('not built');
        expect(existsSync(join(dir, 'offline.html'))).toBe(false);
        writeFileSync(built, '<!doctype html><title>offline</title>');
      }
      const io = memoryIo();
      expect(await run(['--static', join(dir, 'site')], io)).toBe(0);
      expect(readFileSync(join(dir, 'site', 'offline.html'))).toEqual(readFileSync(built));
      expect(io.out().trim()).toBe(join(dir, 'site', 'offline.html'));
    } finally {
      if (!hadOne) rmSync(built, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names an export it cannot read and exits 66', async () => {
    const io = memoryIo();
    expect(await run(['--export', '/nonexistent/ledger.jsonl', '--policy', '/nonexistent/p.json'], io)).toBe(66);
    expect(io.err()).toContain('cannot read the ledger export /nonexistent/ledger.jsonl');
  });
});
