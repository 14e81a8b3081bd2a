/**
 * The saved result a requester keeps (core/pipeline/saved-result.ts, ADR 0291): the `submit --wait --json` line or a
 * docket.result/2 notification, read strictly — the line must be exactly the one its signed entry gives.
 */
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { buildEntry, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { readSavedResult, resultLine } from '../../core/pipeline/saved-result.js';
import { dispositionEntry, SIGNER } from '../ledger/fixtures.js';

const enc = new TextEncoder();
const { body } = buildEntry(dispositionEntry(), SIGNER);
const parsed = (() => {
  const p = parseStoredEntry(body);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value;
})();
const line = resultLine(parsed, body);

describe('reading a saved result', () => {
  it('reads back the entry of the line submit --wait --json printed, its final newline included', () => {
    expect(JSON.parse(line)).toMatchObject({ requestId: 'req-1', kind: 'disposition', entry: body });
    for (const saved of [line, `${line}\n`, `  ${line}\r\n`])
      expect(readSavedResult(enc.encode(saved))).toEqual({
        ok: true,
        value: { entry: body, parsed: expect.objectContaining({ entryHash: parsed.entryHash }) },
      });
  });

  it('refuses a line whose members beside the signed entry were edited, or that carries no entry', () => {
    const edited = line.replace('"outcomeId":"approve"', '"outcomeId":"reject"');
    expect(edited).not.toBe(line);
    const { entry: _e, ...withoutEntry } = JSON.parse(line) as Record<string, unknown>;
    for (const bad of [edited, JSON.stringify(withoutEntry), `${line}${line}`, 'null'])
      expect(readSavedResult(enc.encode(bad))).toMatchObject({ ok: false, error: { code: 'result-unreadable' } });
  });

  it('reads a docket.result/2 notification that carries its entry, and refuses one that left it out', () => {
    const n = canonicalize({ format: 'docket.result/2', notificationId: parsed.entryHash, entry: body }) as string;
    expect(readSavedResult(enc.encode(n))).toEqual({
      ok: true,
      value: { entry: body, parsed: expect.objectContaining({ entryHash: parsed.entryHash }) },
    });
    const omitted = canonicalize({
      format: 'docket.result/2',
      notificationId: parsed.entryHash,
      entryOmitted: true,
      ledger: { logId: 'log-0', seq: 0, entryHash: parsed.entryHash },
    }) as string;
    const r = readSavedResult(enc.encode(omitted));
    expect(!r.ok && r.error.detail).toMatch(/without its entry/);
  });
});
