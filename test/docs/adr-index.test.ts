/**
 * The ADR rules of docs/adr/README.md, checked: every ADR has Status and Date lines and a row in the index that says
 * the same, and supersession is consistent in both directions (the old ADR names its successor, the successor's
 * `Supersedes:` line names the old one). A new ADR without a row, or a superseded one left "accepted", fails here.
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
  readonly supersedes: readonly string[];
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
    supersedes: supersedes === undefined || supersedes === 'none' ? [] : supersedes.split(/,\s*/),
  };
}

const adrs = files.map(read);
const byNumber = new Map(adrs.map((a) => [a.number, a]));

describe('the ADR index', () => {
  it('finds the ADRs it checks', () => {
    expect(adrs.length).toBeGreaterThan(60);
  });

  it.each(adrs)('$file has a Status of accepted or superseded by an existing ADR, and a date', (adr) => {
    expect(adr.status).toMatch(/^(accepted|superseded by \d{4})$/);
    expect(adr.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const successor = /^superseded by (\d{4})$/.exec(adr.status)?.[1];
    if (successor !== undefined) expect(byNumber.get(successor)?.supersedes).toContain(adr.number);
  });

  it.each(adrs)('$file is listed in docs/adr/README.md with its status and date', (adr) => {
    const row = index.split('\n').find((l) => l.startsWith(`| [${adr.number}](${adr.file}) |`));
    expect(row, `no index row for ${adr.file}`).toBeDefined();
    const cells = (row as string).split(' | ');
    expect(cells.at(-2)?.replace(/\[(\d{4})\]\([^)]*\)/, '$1')).toBe(adr.status);
    expect(cells.at(-1)).toBe(`${adr.date} |`);
  });

  it.each(adrs.filter((a) => a.supersedes.length > 0))('$file supersedes only ADRs that say so', (adr) => {
    for (const old of adr.supersedes) expect(byNumber.get(old)?.status).toBe(`superseded by ${adr.number}`);
  });

  it('lists no ADR that does not exist', () => {
    const listed = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\)/gm)].map((m) => m[2]);
    expect(listed.sort()).toEqual([...files].sort());
  });
});
