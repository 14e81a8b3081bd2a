/** `docket … | head` stops quietly when the reader goes away (ADR 0152). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, TRIAGE } from './helpers.js';

let dir: string;
let pack: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'docket-epipe-'));
  // 300 copies of one rule: tens of thousands of overlap warnings, about 1 MB of --json output.
  const p = JSON.parse(readFileSync(TRIAGE, 'utf8')) as { rules: { id: string }[] };
  const first = p.rules[0]!;
  for (let i = 0; i < 300; i++) p.rules.push({ ...first, id: `copy-${i}` });
  pack = join(dir, 'many-warnings.json');
  writeFileSync(pack, JSON.stringify(p));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed stdout', () => {
  it('ends docket validate --json quietly, without a stack trace, keeping the status the command set', () => {
    const script = `"${process.execPath}" bin/docket.js validate --json "${pack}" | head -c 10 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`;
    const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toContain('Error');
    // validate has judged the pack (conformant, warnings only: 0) before the closed pipe surfaces; before this
    // handling the process died on the unhandled error with status 1 and a stack trace.
    expect(r.stderr.trim()).toBe('status 0');
  });

  it('still writes the whole output when the reader reads it all', () => {
    const r = spawnSync(process.execPath, ['bin/docket.js', 'validate', '--json', pack], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.stderr).toBe('');
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  });
});
