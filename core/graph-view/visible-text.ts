/**
 * Strings in a graph run are attacker-controlled (§10): graph ids, node names, pack names, handoff targets.
 * Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) could make one read as something else, so
 * wherever Docket shows such a string — the drawing's text and titles here, every ledger string in the console
 * (console/web/src/format.ts) — each control is shown as a visible escape, `⟨U+202E⟩`.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export const showBidiControls = (s: string): string =>
  s.replace(BIDI, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
