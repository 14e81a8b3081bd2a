import { EXIT } from './args.js';
import type { CliIo } from './io.js';
import { terminalText } from './terminal-text.js';

/**
 * "No verdict", as `docket verify` and `docket replay` both report it when an input could not be read: one JSON
 * line {"noVerdict": {code, detail}} on stdout for machines, the same reason on stderr for people; exit 2.
 */
export function reportNoVerdict(
  io: CliIo,
  command: string,
  noVerdict: { readonly code: string; readonly detail: string },
): number {
  io.stdout(`${JSON.stringify({ noVerdict })}\n`);
  // The detail can quote what was read (a table item, a saved entry): terminal text.
  io.stderr(`docket ${command}: ${terminalText(`no verdict (${noVerdict.code}): ${noVerdict.detail}`)}\n`);
  return EXIT.NO_VERDICT;
}
