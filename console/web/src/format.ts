/**
 * Text helpers. Ledger strings are attacker-controlled: bidirectional controls could make a value read as something
 * else, so they are shown as visible escapes (core/graph-view/visible-text.ts, the drawing's rule too).
 */
import { showBidiControls } from '../../../core/graph-view/index.js';

export const visible = (s: string | null | undefined): string => (s == null ? '—' : showBidiControls(s));

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
