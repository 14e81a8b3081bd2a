import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../../cli/main.js';
import { memoryIo } from '../../cli/io.js';
import { cli } from './helpers.js';

describe('docket dispatch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docket-cmds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints usage on stderr and exits 64 when no command is given', async () => {
    const r = await cli([]);
    expect(r.code).toBe(64);
    expect(r.out).toBe('');
    expect(r.err).toContain('usage: docket <command>');
  });

  it('lists every known command on --help and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(r.out).toContain(`  ${name}`);
  });

  it('gives every command its usage on --help and -h with exit 0, before reading any argument', async () => {
    for (const name of Object.keys(COMMANDS).filter((c) => c !== 'local'))
      for (const flag of ['--help', '-h']) {
        const r = await cli([name, flag]);
        expect({ name, flag, code: r.code, err: r.err }).toEqual({ name, flag, code: 0, err: '' });
        expect(r.out).toMatch(new RegExp(`^usage: docket ${name}\\b`));
      }
  });

  it('refuses an unknown command with exit 64 and names it', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(64);
    expect(r.err).toContain('unknown command "frobnicate"');
  });

  it('does not treat prototype names as commands', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) expect((await cli([name])).code).toBe(64);
  });

  it('reports a known command whose module is missing with a clear message and exit 64, not a crash', async () => {
    const io = memoryIo();
    const code = await main(['replay', 'x'], io, { commandsDir: dir });
    expect(code).toBe(64);
    expect(io.err()).toContain('the "replay" command is not available in this build');
  });

  it('reports a command module without a run function with exit 64', async () => {
    writeFileSync(join(dir, 'show.js'), 'export const notRun = 1;\n');
    const io = memoryIo();
    expect(await main(['show'], io, { commandsDir: dir })).toBe(64);
    expect(io.err()).toContain('exports no run function');
  });

  it('passes the remaining arguments and the io to the command and returns its exit code', async () => {
    writeFileSync(
      join(dir, 'keygen.js'),
      'export async function run(argv, io) { io.stdout(JSON.stringify(argv)); return 7; }\n',
    );
    const io = memoryIo();
    expect(await main(['keygen', '--out', '-'], io, { commandsDir: dir })).toBe(7);
    expect(io.out()).toBe('["--out","-"]');
  });

  it('turns an exception thrown by a command into exit 70 with the error on stderr', async () => {
    writeFileSync(join(dir, 'tail.js'), 'export async function run() { throw new Error("boom"); }\n');
    const io = memoryIo();
    expect(await main(['tail'], io, { commandsDir: dir })).toBe(70);
    expect(io.err()).toContain('internal error');
    expect(io.err()).toContain('boom');
  });
});
