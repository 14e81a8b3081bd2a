import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECEIPT_FINDING_CODES } from '../../core/ledger/receipts/receipt-verify.js';
import {
  CHECKPOINT_STATUS_ORDER,
  ENTRY_STATUS_ORDER,
  groupOf,
  VERIFY_FINDING_CODES,
} from '../../core/ledger/verify/findings.js';

const doc = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8');
const section = (from: string, to: string) => doc.slice(doc.indexOf(from), doc.indexOf(to));

describe('the closed lists of finding codes and their documentation', () => {
  it('verify: docs/verify.md "What is checked" names every code of the closed list, and names no other', () => {
    const checked = section('## What is checked, in order', '## The two modes');
    for (const code of VERIFY_FINDING_CODES) expect(checked, code).toContain(`\`${code}\``);
    // Every hyphenated code the section names is in the closed list: the page documents no code that does not exist.
    const named = new Set([...checked.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]!));
    const others = [...named].filter((c) => !(VERIFY_FINDING_CODES as readonly string[]).includes(c));
    expect(others).toEqual([]);
  });

  it('verify: the status orders are the closed list in its order, and each code belongs to one group in order', () => {
    const statuses = [...CHECKPOINT_STATUS_ORDER, ...ENTRY_STATUS_ORDER].filter((s) => s !== 'ok');
    expect(VERIFY_FINDING_CODES.slice(0, statuses.length)).toEqual(statuses);
    const groups = VERIFY_FINDING_CODES.map(groupOf);
    expect([...groups].sort()).toEqual(groups);
    // The first code of each group: checkpoint, entry, log and anchor findings (ADR 0090).
    expect([0, 1, 2, 3].map((g) => VERIFY_FINDING_CODES[groups.indexOf(g as 0 | 1 | 2 | 3)])).toEqual([
      'checkpoint-malformed',
      'malformed',
      'sequence-broken',
      'unregistered-log',
    ]);
    expect(new Set(VERIFY_FINDING_CODES).size).toBe(VERIFY_FINDING_CODES.length);
  });

  it('verify-receipt: the docs table lists exactly the closed list, in order', () => {
    const table = section('<!-- receipt-findings:start -->', '<!-- receipt-findings:end -->');
    const rows = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...RECEIPT_FINDING_CODES]);
  });
});
