/**
 * ADR 0110: a shell whose own Node is older than 22.5 (these machines and CI have Node 20) that starts
 * `bin/docket.js` directly gets the command run on the project's Node 24 (the `node` devDependency), not a failure
 * inside a dependency, and not the AWS SDK's warning banner for an unsupported Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REQ, TRIAGE } from './helpers.js';

/** An older Node on this machine: DOCKET_OLD_NODE, or the system's /usr/bin/node when it is older than 22.5. */
function olderNode(): string | undefined {
  const candidate = process.env.DOCKET_OLD_NODE ?? '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 5) ? candidate : undefined;
}

const old = olderNode();

describe.skipIf(old === undefined)('bin/docket.js started by an older Node', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('re-runs itself on the Node 24 the node devDependency installed, with no SDK warning banner', () => {
    // Every Node process started for the command records its version (a preload through NODE_OPTIONS).
    const dir = mkdtempSync(join(tmpdir(), 'docket-old-node-'));
    const record = join(dir, 'versions');
    writeFileSync(
      join(dir, 'record.cjs'),
      `require('node:fs').appendFileSync(${JSON.stringify(record)}, process.versions.node + '\\n');\n`,
    );
    const r = spawnSync(
      old!,
      [
        join(process.cwd(), 'bin', 'docket.js'),
        'evaluate',
        '--pack',
        TRIAGE,
        '--facts',
        join(REQ, 'triage-instance-1-not-applicable.facts.json'),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, PATH: '/usr/bin:/bin', NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}` },
      },
    );
    const versions = readFileSync(record, 'utf8').trim().split('\n');
    rmSync(dir, { recursive: true, force: true });
    expect(versions.map((v) => Number(v.split('.')[0]))).toEqual([
      Number(spawnSync(old!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.split('.')[0]),
      24,
    ]);
    expect(r.stderr).not.toMatch(/NodeVersionSupportWarning|EBADENGINE/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/"kind":"not-applicable"/);
  });
});
