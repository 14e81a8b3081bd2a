/**
 * A pipeline command's work against the stack its flags name (stack/settings.ts): the stack is opened for `body` and
 * closed on every way out; a failure to reach or read it is said on stderr as explainStackError words it, exit 1.
 */
import { explainStackError, openStack, type StackClients } from '../stack/clients.js';
import { resolveSettings } from '../stack/settings.js';
import { EXIT } from './args.js';
import type { CliIo } from './io.js';

export async function onStack(
  io: CliIo,
  command: string,
  flags: Readonly<Record<string, unknown>>,
  body: (stack: StackClients) => Promise<number>,
): Promise<number> {
  const settings = resolveSettings(flags as never, process.env);
  const stack = openStack(settings);
  try {
    return await body(stack);
  } catch (e) {
    io.stderr(`docket ${command}: ${explainStackError(e, settings)}\n`);
    return EXIT.FAILED;
  } finally {
    stack.close();
  }
}
