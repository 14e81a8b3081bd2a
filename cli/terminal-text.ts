/**
 * Text for a human's terminal (README.md, after the command table). Strings from packs, graphs, entries, handoff
 * messages and table items are untrusted: an ESC, CR, newline or bidirectional override in one could act on the
 * terminal, forge a line or reorder what the operator reads. Every human (non-JSON) output passes them through
 * `terminalText`, so each prints as a visible `\u{hex}` escape: every C0 and C1 control, DEL, and the Unicode bidi
 * controls (UNSAFE below). A backslash is left alone: the escapes are for a reader, never parsed back. JSON outputs
 * are data: a JSON reader sees the exact strings.
 */
// Control characters are what this pattern is for: they are the ones a terminal acts on.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of text (or one field of one) with every control and bidi character escaped. */
export function terminalText(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** A value as terminal text: strings escaped, anything else as String() gives it (then escaped too). */
export const shown = (x: unknown): string => terminalText(typeof x === 'string' ? x : String(x));

/** Lines the CLI composed, each escaped, joined and ended with a newline: a field cannot break or forge a line. */
export const terminalLines = (lines: readonly string[]): string => `${lines.map(terminalText).join('\n')}\n`;

/** True when `s` holds a character terminalText escapes (tests assert outputs hold none but their own newlines). */
export const hasUnsafe = (s: string): boolean => new RegExp(UNSAFE.source).test(s);
