/**
 * Text for a human's terminal (README.md, after the command table). Packs, graphs, entries, handoff messages and table
 * items are untrusted: a string from one of them — a target name, an outcome id, a reason, a route, an id, a detail —
 * can carry ESC (a terminal control sequence), CR (overwrite the line), a newline (forge a line) or a bidirectional
 * override that reorders what the operator reads. Every human (non-JSON) output of the CLI passes such strings
 * through `terminalText` before writing them, so each one prints as visible escapes and can act on nothing.
 *
 * Escaped, as `\u{hex}`: every C0 control (U+0000–U+001F, newline and tab included), DEL (U+007F), every C1 control
 * (U+0080–U+009F), and the Unicode bidirectional controls: LRM/RLM (U+200E, U+200F), the embeddings and overrides
 * LRE…RLO (U+202A–U+202E), the isolates LRI…PDI (U+2066–U+2069) and the Arabic letter mark (U+061C). A backslash is
 * left alone: the escapes are for a reader, never parsed back. JSON outputs are not passed through here: they are
 * data, and a JSON reader sees the exact strings.
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
