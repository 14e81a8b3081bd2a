import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXIT, HelpRequested, UsageError, fail } from './args.js';
import { InputReadError, processIo, type CliIo } from './io.js';

/**
 * `docket <command> [args…]`: dispatches to cli/commands/<command>.ts, each exporting
 * `run(argv: string[], io: CliIo): Promise<number>` (the exit code). Commands are imported lazily so that one
 * command's dependencies (the AWS SDK for the pipeline commands) never load for another, and so a command that is
 * not built yet is reported clearly (exit 64) instead of crashing the whole CLI.
 */
export const COMMANDS = Object.freeze({
  validate: 'check a Judgment Pack for carrier, structural and semantic conformance (Core §3)',
  evaluate: 'evaluate a pack against facts and evidence: one disposition or one typed error (Core §8)',
  conformance: 'run the conformance corpus',
  verify: 'verify a ledger export or live ledger against a trust policy',
  receipt: "write a request's portable receipt (entry, inclusion proof, signed checkpoint, cosignatures)",
  'verify-receipt': 'verify a portable receipt offline against a trust policy and the input files',
  replay: 'replay ledger entries and compare their bytes',
  publish: 'publish a pack to the pack registry',
  submit: 'submit evaluation requests to the intake queue',
  show: 'show one ledger entry',
  tail: 'follow new ledger entries',
  handoffs: 'read handoff messages from route queues',
  checkpoint: 'create or inspect ledger checkpoints',
  keygen: 'generate an Ed25519 signing key',
  witness: 'cosign checkpoints as a C2SP witness (run once, serve add-checkpoint, keygen)',
  local: 'start or stop the local AWS stack',
  console: 'serve the read-only audit console: browse, verify and replay the ledger in a browser',
  graph: 'validate or evaluate a judgment graph (RFC 0002 flat graphs, RFC 0022 subgraphs; docs/graphs.md)',
  test: "run a project's declared pack matrices and graph rows (jpack.json; docs/graphs.md)",
  bench: "bench live: requests through a stack at a set rate, printed as the scale model's figures (docs/deploy.md)",
} as const);

export type CommandName = keyof typeof COMMANDS;

/**
 * The commands that never touch the ledger: they skip the ledger crypto set-up below (loading core/ledger and the
 * sodium-native addon is ~70 ms of a ~200 ms start; docs/adr/0332-cli-start-up.md). Every other command, including
 * one added later, gets it.
 */
const WITHOUT_LEDGER: ReadonlySet<CommandName> = new Set<CommandName>(['evaluate', 'validate']);

export interface CommandModule {
  run(argv: string[], io: CliIo): Promise<number>;
}

const isCommand = (s: string): s is CommandName => Object.prototype.hasOwnProperty.call(COMMANDS, s);

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d}`);
  return `usage: docket <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun "docket <command> --help" for a command's options.\n`;
}

export interface MainOptions {
  /** Directory holding the command modules (default: cli/commands beside this file). Tests point it elsewhere. */
  readonly commandsDir?: string;
}

async function loadCommand(name: CommandName, options: MainOptions): Promise<CommandModule | { missing: string }> {
  try {
    // The specifier is computed, not a literal, so each command loads only when invoked (and bundlers leave it be).
    const specifier =
      options.commandsDir === undefined
        ? `./commands/${name}.js`
        : pathToFileURL(join(options.commandsDir, `${name}.js`)).href;
    const mod = (await import(/* @vite-ignore */ specifier)) as Partial<CommandModule>;
    if (typeof mod.run !== 'function') return { missing: `cli/commands/${name} exports no run function` };
    return mod as CommandModule;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const own = err.code === 'ERR_MODULE_NOT_FOUND' && new RegExp(`[/\\\\]${name}\\.(js|ts)\\b`).test(err.message);
    if (own) return { missing: `the "${name}" command is not available in this build` };
    return { missing: `the "${name}" command could not be loaded: ${err.message}` };
  }
}

/** Runs one CLI invocation; returns its exit code. Never throws. */
export async function main(argv: readonly string[], io: CliIo, options: MainOptions = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(usage());
    return EXIT.USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return EXIT.OK;
  }
  if (!isCommand(name)) {
    io.stderr(`docket: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return EXIT.USAGE;
  }
  // node:crypto for the ledger's hashes and signatures (docs/adr/0185-ledger-crypto-port.md), with libsodium's Ed25519
  // verification when sodium-native loads (docs/adr/0240-libsodium-ed25519-verify.md).
  if (!WITHOUT_LEDGER.has(name)) (await import('../adapters/sodium-ledger-crypto.js')).useFastestLedgerCrypto();
  const mod = await loadCommand(name, options);
  if ('missing' in mod) {
    io.stderr(`docket: ${mod.missing}\n`);
    return EXIT.USAGE;
  }
  try {
    return await mod.run(rest, io);
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.stdout(`usage: ${e.usage}\n`);
      return EXIT.OK;
    }
    if (e instanceof UsageError) return fail(io, name, e.message, EXIT.USAGE);
    if (e instanceof InputReadError) return fail(io, name, e.message, EXIT.NO_INPUT);
    return fail(io, name, `internal error: ${(e as Error)?.stack ?? String(e)}`, EXIT.SOFTWARE);
  }
}

/** True when this module is the program (bin/docket.js imports it, or `node dist/cli/main.js`), not a library import. */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    const real = realpathSync(script);
    const self = fileURLToPath(import.meta.url);
    const bin = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));
    return real === self || real === bin;
  } catch {
    return false;
  }
}

/**
 * A reader that goes away (`docket validate --json … | head`) is not a failure of the command: the rest of the
 * output has no reader, so the command stops quietly: no stack trace, and exit status 141 (128 + SIGPIPE, what a
 * shell reports for a writer killed by a closed pipe) unless the command had already set its own (ADR 0152).
 */
function stopQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.CLOSED_PIPE);
    throw e;
  });
}

if (isEntryPoint()) {
  stopQuietlyOnClosedStdout();
  // exitCode rather than process.exit(): stdout is flushed before the process ends.
  process.exitCode = await main(process.argv.slice(2), processIo());
}
