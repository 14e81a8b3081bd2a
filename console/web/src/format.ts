/**
 * Text helpers. Ledger strings are attacker-controlled: bidirectional controls (U+202A–U+202E, U+2066–U+2069,
 * U+200E/F, U+061C) could make a value read as something else, so they are shown as visible escapes.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export const visible = (s: string | null | undefined): string =>
  s == null ? '—' : s.replace(BIDI, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);

export const resultText = (e: { kind: string; result: string | null; outcomeId: string | null }): string =>
  e.kind === 'disposition'
    ? `${e.result ?? ''}${e.outcomeId !== null ? ` ${e.outcomeId}` : ''}`
    : e.kind === 'evaluation-error'
      ? `error ${e.result ?? ''}`
      : e.kind === 'admission-refusal'
        ? `refused ${e.result ?? ''}`
        : e.kind === 'graph-run'
          ? `graph run ${e.result ?? ''}`
          : `unreadable (${e.result ?? ''})`;

export const correlationText = (c: Readonly<Record<string, string>> | null): string =>
  c === null
    ? '—'
    : Object.entries(c)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
