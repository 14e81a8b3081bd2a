/**
 * The ADR rules of docs/adr/README.md, checked: every ADR has Status and Date lines and a row in the index that says
 * the same, and supersession is consistent in both directions (the old ADR names its successor, the successor's
 * `Supersedes:` line names the old one). A new ADR without a row, or a superseded one left "accepted", fails here.
 * A partial supersession (docs/adr/0321-accepted-adrs-are-sealed.md) reads "partially superseded by NNNN" in the old
 * ADR and its index row, and "NNNN (in part)" in the successor's `Supersedes:` line; both directions must agree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'adr');
const files = readdirSync(DIR).filter((f) => /^\d{4}-.*\.md$/.test(f));
const index = readFileSync(join(DIR, 'README.md'), 'utf8');

interface Adr {
  readonly file: string;
  readonly number: string;
  readonly status: string;
  readonly date: string;
  /** Each ADR this one supersedes, with whether only in part. */
  readonly supersedes: readonly { readonly number: string; readonly partial: boolean }[];
}

/**
 * `accepted`, `superseded by NNNN[, NNNN]…`, or `partially superseded by NNNN (the part it replaces)[, …]`: a
 * partial supersession names, for each successor, the part of this ADR that successor replaces.
 */
const PART = '\\d{4} \\([^()]+\\)';
const STATUS = new RegExp(
  `^(accepted|superseded by (\\d{4}(, \\d{4})*)|partially superseded by (${PART}(, ${PART})*))$`,
);

/** The successors a Status names, and whether they supersede it only in part. */
function successorsOf(status: string): { partial: boolean; numbers: string[] } {
  const m = STATUS.exec(status);
  if (m === null || m[1] === 'accepted') return { partial: false, numbers: [] };
  if (m[2] !== undefined) return { partial: false, numbers: m[2].split(', ') };
  return { partial: true, numbers: [...(m[4] as string).matchAll(/(\d{4}) \(/g)].map((x) => x[1] as string) };
}

function read(file: string): Adr {
  const lines = readFileSync(join(DIR, file), 'utf8').split('\n');
  const field = (name: string): string | undefined =>
    lines
      .slice(0, 8)
      .find((l) => l.startsWith(`- ${name}: `))
      ?.slice(name.length + 4);
  const supersedes = field('Supersedes');
  return {
    file,
    number: file.slice(0, 4),
    status: field('Status') ?? '',
    date: field('Date') ?? '',
    supersedes:
      supersedes === undefined || supersedes === 'none'
        ? []
        : supersedes.split(/,\s*/).map((x) => ({ number: x.slice(0, 4), partial: x.endsWith(' (in part)') })),
  };
}

const adrs = files.map(read);
const byNumber = new Map(adrs.map((a) => [a.number, a]));

describe('the ADR index', () => {
  it('refuses a partial supersession that does not name the part superseded', () => {
    expect(STATUS.test('partially superseded by 0350')).toBe(false);
    expect(STATUS.test('partially superseded by 0400 (the transaction), 0404')).toBe(false);
    expect(successorsOf('partially superseded by 0400 (the transaction), 0404 (the positions)')).toEqual({
      partial: true,
      numbers: ['0400', '0404'],
    });
    expect(successorsOf('superseded by 0270')).toEqual({ partial: false, numbers: ['0270'] });
  });

  it('finds the ADRs it checks', () => {
    expect(adrs.length).toBeGreaterThan(60);
  });

  it.each(adrs)('$file has a Status of accepted or (partially) superseded by existing ADRs, and a date', (adr) => {
    expect(adr.status).toMatch(STATUS);
    expect(adr.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const { partial, numbers } = successorsOf(adr.status);
    for (const successor of numbers)
      expect(byNumber.get(successor)?.supersedes, `ADR ${successor}'s Supersedes line`).toContainEqual({
        number: adr.number,
        partial,
      });
  });

  it.each(adrs)('$file is listed in docs/adr/README.md with its status and date', (adr) => {
    const row = index.split('\n').find((l) => l.startsWith(`| [${adr.number}](${adr.file}) |`));
    expect(row, `no index row for ${adr.file}`).toBeDefined();
    const cells = (row as string).split(' | ');
    expect(cells.at(-2)?.replace(/\[(\d{4})\]\([^)]*\)/g, '$1')).toBe(adr.status);
    expect(cells.at(-1)).toBe(`${adr.date} |`);
  });

  it.each(adrs.filter((a) => a.supersedes.length > 0))('$file supersedes only ADRs that say so', (adr) => {
    for (const old of adr.supersedes) {
      const { partial, numbers } = successorsOf(byNumber.get(old.number)?.status ?? '');
      expect(numbers, `ADR ${old.number}'s Status`).toContain(adr.number);
      expect(partial, `ADR ${old.number}'s Status says "partially" exactly when this one supersedes it in part`).toBe(
        old.partial,
      );
    }
  });

  it.each(adrs)('$file is in the table of decisions in force unless it is wholly superseded', (adr) => {
    const history = index.indexOf('\n## History: superseded decisions\n');
    expect(history).toBeGreaterThan(0);
    const at = index.indexOf(`| [${adr.number}](${adr.file}) |`);
    const superseded = adr.status.startsWith('superseded by');
    expect(at > history, `${adr.file} (${adr.status}) is in the ${at > history ? 'history' : 'in-force'} table`).toBe(
      superseded,
    );
  });

  it('lists no ADR that does not exist', () => {
    const listed = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\)/gm)].map((m) => m[2]);
    expect(listed.sort()).toEqual([...files].sort());
  });
});
