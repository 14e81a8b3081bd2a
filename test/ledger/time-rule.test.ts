import { describe, expect, it } from 'vitest';
import { isRfc3339Utc } from '../../core/ledger/entries/entry-rules.js';
import { stream } from './ed25519-vectors.js';

/** The rule as it was written before, by regular expression: the reference the character-code reader must match. */
const TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;
function reference(s: string): boolean {
  const m = TIME_PATTERN.exec(s);
  if (m === null) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 60) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] as number;
  return d >= 1 && d <= days;
}

describe('the entry time rule (RFC 3339 UTC date-time)', () => {
  it('accepts and refuses the edge cases as the regular expression does', () => {
    const cases = [
      '2026-12-03T09:00:00Z',
      '2026-12-03T09:00:00.1Z',
      '2026-12-03T09:00:00.123456789Z',
      '2026-12-03T09:00:00.1234567890Z',
      '2026-12-03T09:00:00.Z',
      '2026-12-03T09:00:00z',
      '2026-12-03t09:00:00Z',
      '2026-12-03T09:00:60Z',
      '2026-12-03T09:00:61Z',
      '2026-12-03T24:00:00Z',
      '2026-12-03T23:60:00Z',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-01T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-04-00T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2026-12-03T09:00:00+00:00',
      '2026-12-03 09:00:00Z',
      '2026-12-03T09:00:00Z\n',
      ' 2026-12-03T09:00:00Z',
      '２026-12-03T09:00:00Z',
      '2026-12-03T09:00:0٣Z',
      '',
    ];
    for (const c of cases) expect({ c, ok: isRfc3339Utc(c) }).toEqual({ c, ok: reference(c) });
    expect(cases.filter((c) => isRfc3339Utc(c)).length).toBe(7);
    expect(isRfc3339Utc(20261203)).toBe(false);
  });

  it('agrees with the regular expression on 50,000 seeded mutations of valid times', () => {
    const rand = stream('time-rule');
    const alphabet = '0123456789-:.TZtz +٣２\n';
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      const b = rand(8);
      const base = `${String(1990 + ((b[0] as number) % 40)).padStart(4, '0')}-${String(((b[1] as number) % 13) + 0).padStart(2, '0')}-${String((b[2] as number) % 32).padStart(2, '0')}T${String((b[3] as number) % 25).padStart(2, '0')}:${String((b[4] as number) % 61).padStart(2, '0')}:${String((b[5] as number) % 62).padStart(2, '0')}${(b[6] as number) % 3 === 0 ? '' : `.${'123456789012'.slice(0, (b[6] as number) % 12)}`}Z`;
      const chars = [...base];
      const edits = (b[7] as number) % 4;
      const r = rand(edits * 2);
      for (let e = 0; e < edits; e++) {
        const at = (r[2 * e] as number) % (chars.length + 1);
        const ch = alphabet[(r[2 * e + 1] as number) % alphabet.length] as string;
        if (e % 2 === 0) chars[at] = ch;
        else chars.splice(at, 1);
      }
      const s = chars.join('');
      const ok = isRfc3339Utc(s);
      if (ok !== reference(s)) throw new Error(`disagree on ${JSON.stringify(s)}`);
      if (ok) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(5_000);
    expect(accepted).toBeLessThan(45_000);
  });
});
