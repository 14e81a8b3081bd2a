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

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/**
 * Strict flag parsing: unknown flags, missing flag values and unexpected positionals are usage errors.
 * "-" is an ordinary positional or flag value (stdin).
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: FlagSpec,
  positionals: { min: number; max: number },
): ParsedArgs {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: positionals.max > 0,
    }) as typeof parsed;
  } catch (e) {
    // node:util's messages run over several lines of advice; the first line says what is wrong.
    throw new UsageError(
      ((e as Error).message.split('\n')[0] ?? '').replace(/\. To specify a positional argument.*$/s, ''),
    );
  }
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

/** Prints a usage error and returns its exit code. */
export function reportUsage(io: CliIo, command: string, message: string, usage: string): number {
  io.stderr(`docket ${command}: ${message}\nusage: ${usage}\n`);
  return EXIT.USAGE;
}

/** What a command's argument reading gives: the arguments to run with, or the exit code to return at once. */
export type CommandLine<T> = { readonly ok: true; readonly args: T } | { readonly ok: false; readonly exit: number };

/**
 * A command's argument reading, handled the same way by every command: `read` parses argv (throwing UsageError
 * on a mistake) and returns 'help' when --help was given. Help prints the usage on stdout (exit 0); a usage error
 * is reported with the usage on stderr (exit 64). Any other error is a bug and propagates.
 */
export function readCommandLine<T>(io: CliIo, command: string, usage: string, read: () => T | 'help'): CommandLine<T> {
  let args: T | 'help';
  try {
    args = read();
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, exit: reportUsage(io, command, e.message, usage) };
    throw e;
  }
  if (args === 'help') {
    io.stdout(`usage: ${usage}\n`);
    return { ok: false, exit: EXIT.OK };
  }
  return { ok: true, args };
}
