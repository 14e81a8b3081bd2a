/**
 * `docket console` (docs/console.md): serves the read-only audit console on 127.0.0.1 (another interface only with
 * an explicit --host) and prints its URL; runs until interrupted. Reads the running local stack by default, a stack
 * named by the usual stack options, or files (--export with --checkpoints and --policy). `--static <dir>` instead
 * copies the single-file offline verification page into <dir> and exits.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, flagTable, parseCommandArgs, parsePort, readCommandLine, UsageError, fail } from '../args.js';
import type { CliIo } from '../io.js';
import { defaultDistDir, startConsoleServer } from '../console/server.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../console/address.js';
import {
  openFileSource,
  openStackSource,
  SourceError,
  type ConsoleSource,
  type ConsoleWitnesses,
} from '../console/source.js';
import { checkWitnessFlags, readWitnessInputs, WITNESS_FLAGS } from './verify.js';
import { localPaths } from '../../stack/local-files.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';

const USAGE = `docket console [--port <n>] [--host <address>] [--open] [--policy <trust-policy.json>] [--checkpoints <checkpoints.json>]
               [--export <ledger.jsonl>] [--graph-result <docket graph evaluate output>]
               [--witnesses <witness-policy.json> [--cosigned <checkpoint-notes.json | witness-state.json>]… [--now <RFC 3339>]]
docket console --static <dir>
  Serves the read-only audit console (default http://127.0.0.1:4600/; --port 0 picks a free port) until interrupted.
  Without --export it reads a stack (the local stack by default; stack options below); with --export it reads files.
  --graph-result adds the page /graph-run: the saved graph run drawn as a DAG (docs/console.md "Graph runs").
  Defaults: --policy .docket/local/trust-policy.json, --checkpoints .docket/local/checkpoints.json when present.
  --host other than 127.0.0.1 exposes the console on that interface: do so only on a network you trust.
  --witnesses judges each log's newest checkpoint against a witness policy as "docket verify --witnesses" does
  (same files and defaults; without --now, the clock at each judgement).
  --static copies the offline verification page (console/dist/offline.html, built by "npm run build") into <dir>.
${SETTINGS_HELP}`;

function openBrowser(url: string, io: CliIo): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => io.stderr(`docket console: could not start ${cmd}; open ${url} yourself\n`));
    child.unref();
  } catch {
    io.stderr(`docket console: could not start ${cmd}; open ${url} yourself\n`);
  }
}

function copyOffline(dir: string, io: CliIo): number {
  const from = join(defaultDistDir(), 'offline.html');
  if (!existsSync(from)) {
    io.stderr(`docket console: the offline page is not built (${from} is missing): run "npm run build" first\n`);
    return EXIT.NO_INPUT;
  }
  mkdirSync(dir, { recursive: true });
  const to = join(dir, 'offline.html');
  copyFileSync(from, to);
  io.stdout(`${to}\n`);
  return EXIT.OK;
}

/** The graph-semantics.md inputs limit (16 MiB) bounds a saved result too; the page reads it strictly (ADR 0341). */
const GRAPH_RESULT_MAX_BYTES = 16 * 1024 * 1024;

function readGraphResult(path: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    if (statSync(path).size > GRAPH_RESULT_MAX_BYTES) return { ok: false, message: 'larger than 16 MiB' };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: 'not a JSON text (save the stdout of docket graph evaluate)' };
  }
}

function waitForInterrupt(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function run(argv: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const line = readCommandLine(io, 'console', USAGE, () => {
    const { values } = parseCommandArgs(
      argv,
      {
        ...SETTING_FLAGS,
        ...flagTable(['port', 'host', 'export', 'checkpoints', 'policy', 'static', 'graph-result'], ['open']),
        ...WITNESS_FLAGS,
      },
      USAGE,
    );
    const port = typeof values.port === 'string' ? parsePort(values.port) : DEFAULT_PORT;
    if (port > 65535) throw new UsageError('--port is at most 65535');
    if (values.host === '') throw new UsageError('--host names an address');
    checkWitnessFlags(values);
    return { values, port };
  });
  if (!line.ok) return line.exit;
  const { values, port } = line.args;
  if (typeof values.static === 'string') return copyOffline(values.static, io);

  let witnesses: ConsoleWitnesses | undefined;
  if (typeof values.witnesses === 'string') {
    const w = await readWitnessInputs(values);
    if (!w.ok) return fail(io, 'console', `${w.error.code}: ${w.error.detail}`, EXIT.NO_INPUT);
    const fixed = typeof values.now === 'string' ? w.value.now : null;
    witnesses = { inputs: w.value, now: () => fixed ?? Math.floor(Date.now() / 1000) };
  }
  const withWitnesses = witnesses === undefined ? {} : { witnesses };
  let source: ConsoleSource;
  try {
    source =
      typeof values.export === 'string'
        ? await openFileSource({
            exportPath: values.export,
            policyPath: typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy,
            ...(typeof values.checkpoints === 'string' ? { checkpointsPath: values.checkpoints } : {}),
            ...withWitnesses,
          })
        : await openStackSource({
            flags: values as never,
            ...(typeof values.policy === 'string' ? { policyPath: values.policy } : {}),
            ...(typeof values.checkpoints === 'string' ? { checkpointsPath: values.checkpoints } : {}),
            ...withWitnesses,
          });
  } catch (e) {
    if (e instanceof SourceError) return fail(io, 'console', e.message, EXIT.NO_INPUT);
    throw e;
  }
  let graphResult: unknown;
  if (typeof values['graph-result'] === 'string') {
    const g = readGraphResult(values['graph-result']);
    if (!g.ok) {
      source.close();
      return fail(io, 'console', `--graph-result ${values['graph-result']}: ${g.message}`, EXIT.NO_INPUT);
    }
    graphResult = g.value;
  }
  const host = typeof values.host === 'string' ? values.host : DEFAULT_HOST;
  const running = await startConsoleServer({
    source,
    host,
    port,
    ...(graphResult === undefined ? {} : { graphResult }),
  });
  if (source.policyProblem !== null)
    io.stderr(`docket console: ${source.policyProblem} (signatures show "no-policy")\n`);
  if (host !== DEFAULT_HOST) io.stderr(`docket console: listening on ${host}, not only on this machine\n`);
  io.stdout(`docket console: ${source.description}\n${running.url}\n`);
  if (graphResult !== undefined) io.stdout(`${running.url}graph-run\n`);
  if (values.open === true) openBrowser(running.url, io);
  await waitForInterrupt(signal);
  await running.close();
  source.close();
  return EXIT.OK;
}
