/**
 * The refusal codes are one closed union (REFUSAL_CODES, core/ledger/entries/entry-types.ts); the compiler makes admission
 * and replay handle each, and this test makes the published lists say exactly the same: both schemas' enums and the
 * table in docs/ledger-format.md (ADR 0335).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFUSAL_STEP } from '../../core/admission/index.js';
import { REFUSAL_CODES } from '../../core/ledger/entries/entry-types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');

type Schema = { properties: { refusal?: { properties?: { code?: { enum?: string[] } } } } };
const schemaEnum = (p: string): string[] | undefined =>
  (JSON.parse(read(p)) as Schema).properties.refusal?.properties?.code?.enum;

/** The rows of the table headed "| Refusal code | Check | When |": [code, check] per row. */
function docsTable(markdown: string): [string, string][] {
  const lines = markdown.split('\n');
  const head = lines.findIndex((l) => l.startsWith('| Refusal code | Check |'));
  if (head < 0) return [];
  const rows: [string, string][] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const [code = '', check = ''] = line
      .split('|')
      .slice(1)
      .map((c) => c.trim());
    rows.push([code.replace(/`/g, ''), check]);
  }
  return rows;
}

describe('the refusal codes are listed exactly once everywhere they are published', () => {
  // A result notification (docket.result/2) carries the signed entry itself, so the ledger entry's schema is the one
  // place outside core a refusal code is enumerated (its SNS attribute `refusalCode` is a plain string).
  it.each(['schema/ledger-entry.schema.json'])('the refusal.code enum of %s is REFUSAL_CODES', (p) => {
    expect(schemaEnum(p)).toEqual([...REFUSAL_CODES]);
  });

  it('the table in docs/ledger-format.md lists REFUSAL_CODES in order, each with the check that decides it', () => {
    const rows = docsTable(read('docs/ledger-format.md'));
    expect(rows).toEqual(REFUSAL_CODES.map((c) => [c, REFUSAL_STEP[c]]));
  });

  it('reads a table that lacks a code as lacking it', () => {
    const table = '| Refusal code | Check | When |\n| --- | --- | --- |\n| `request-malformed` | request | x |\n';
    expect(docsTable(table)).not.toEqual(REFUSAL_CODES.map((c) => [c, REFUSAL_STEP[c]]));
  });
});
