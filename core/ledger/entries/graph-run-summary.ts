/**
 * A one-line summary of a graph run's recorded answer (the output contract text of a `graph-run` entry, ADR 0360),
 * for listings: "evaluated <headline disposition kind> [<outcome id>]" or "refused <layer> <code>". The entry was
 * read strictly, so the text is the contract's object; anything else still gives a line, never a throw.
 */
import { isRec } from '../primitives/shape.js';

export function graphRunStatus(run: string): string {
  let v: unknown;
  try {
    v = JSON.parse(run);
  } catch {
    return 'unreadable';
  }
  if (!isRec(v)) return 'unreadable';
  if (v.status === 'refused') {
    const e = isRec(v.error) ? v.error : {};
    return `refused ${String(e.layer)} ${String(e.code)}`;
  }
  // B6: the headline is the result leaf's disposition (0.2.0-draft); format "1" has only the result node's.
  const d = isRec(v.headline) && isRec(v.headline.disposition) ? v.headline.disposition : v.disposition;
  if (!isRec(d)) return 'evaluated';
  return `evaluated ${String(d.kind)}${d.kind === 'outcome' ? ` ${String(d.outcomeId)}` : ''}`;
}
