import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.js';

// Every command's exit statuses live in one table (core/exit-codes.ts); commands import them from here.
export { EXIT } from '../core/exit-codes.js';
import { EXIT } from '../core/exit-codes.js';

/** A command-line mistake: reported on stderr with the command's usage, exit 64. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/** A flag table by name: the flags that take a value, the switches, and the flags that take a value and repeat. */
export function flagTable(
  values: readonly string[],
  switches: readonly string[] = [],
  repeated: readonly string[] = [],
) {
  const table: FlagSpec = {};
  for (const name of values) table[name] = { type: 'string' };
  for (const name of switches) table[name] = { type: 'boolean' };
  for (const name of repeated) table[name] = { type: 'string', multiple: true };
  return table;
}

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/** `--help` or `-h` was given: the usage it carries is printed on stdout, exit 0 (cli/main.ts, readCommandLine). */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
  constructor(readonly usage: string) {
    super('help requested');
  }
}

/**
 * Strict flag parsing: unknown flags, missing flag values and unexpected positionals are usage errors.
 * "-" is an ordinary positional or flag value (stdin). Every command takes `--help`/`-h`: it throws HelpRequested.
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: FlagSpec,
  usage: string,
  positionals: { min: number; max: number } = { min: 0, max: 0 },
): ParsedArgs {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: positionals.max > 0,
    }) as typeof parsed;
  } catch (e) {
    // node:util's messages run over several lines of advice; the first line says what is wrong.
    throw new UsageError(
      ((e as Error).message.split('\n')[0] ?? '').replace(/\. To specify a positional argument.*$/s, ''),
    );
  }
  if (parsed.values.help === true) throw new HelpRequested(usage);
  const n = parsed.positionals.length;
  if (n < positionals.min)
    throw new UsageError(positionals.min === 1 ? 'missing argument' : `expected at least ${positionals.min} arguments`);
  if (n > positionals.max)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`);
  for (const [name, spec] of Object.entries(options)) {
    const v = parsed.values[name];
    // A value that looks like a flag is almost always a forgotten value ("--pack --facts x").
    if (spec.type === 'string' && typeof v === 'string' && v.startsWith('--'))
      throw new UsageError(`option --${name} needs a value, got ${JSON.stringify(v)}`);
    if (spec.type === 'string' && v === '') throw new UsageError(`option --${name} needs a non-empty value`);
  }
  return parsed as ParsedArgs;
}

/** A positive integer written in plain decimal digits (no sign, exponent, fraction or leading zero). */
export function parsePositiveInteger(text: string, what: string): number {
  if (!/^[1-9][0-9]*$/.test(text))
    throw new UsageError(`${what} must be a positive integer, got ${JSON.stringify(text)}`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new UsageError(`${what} is too large: ${text}`);
  return n;
}

/** A --port value: 0 picks a free port, else a positive integer. */
export const parsePort = (text: string): number => (text === '0' ? 0 : parsePositiveInteger(text, '--port'));

/** Says on stderr why the command stops, as `docket <command>: <message>`, and returns its exit code. */
export function fail(io: CliIo, command: string, message: string, exit: number): number {
  io.stderr(`docket ${command}: ${message}\n`);
  return exit;
}

/** Prints a usage error and returns its exit code (64; the graph commands' table has its own, ADR 0314). */
export const reportUsage = (io: CliIo, command: string, message: string, usage: string, exit: number = EXIT.USAGE) =>
  fail(io, command, `${message}\nusage: ${usage}`, exit);

/** What a command's argument reading gives: the arguments to run with, or the exit code to return at once. */
export type CommandLine<T> = { readonly ok: true; readonly args: T } | { readonly ok: false; readonly exit: number };

/**
 * A command's argument reading that reports a usage error with the usage: `read` parses argv (throwing UsageError
 * on a mistake). Help prints the usage on stdout (exit 0); a usage error is reported with the usage on stderr
 * (exit 64). Any other error is a bug and propagates.
 */
export function readCommandLine<T>(io: CliIo, command: string, usage: string, read: () => T): CommandLine<T> {
  try {
    return { ok: true, args: read() };
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.stdout(`usage: ${e.usage}\n`);
      return { ok: false, exit: EXIT.OK };
    }
    if (e instanceof UsageError) return { ok: false, exit: reportUsage(io, command, e.message, usage) };
    throw e;
  }
}
