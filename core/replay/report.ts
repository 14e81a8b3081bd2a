/**
 * The output of `docket replay` (docs/replay.md "Output"): one JSON line per entry, members in a fixed order, then
 * one summary line. Every value is JSON data already (strings, integers, null), so the lines are deterministic.
 */
import type { ReplayOutcome, ReplaySummary } from './types.js';

export function outcomeLine(o: ReplayOutcome): string {
  const line: Record<string, unknown> = {
    logId: o.logId,
    seq: o.seq,
    requestId: o.requestId,
    kind: o.kind,
    entryHash: o.entryHash,
    result: o.result,
  };
  if (o.reason !== undefined) line.reason = o.reason;
  if (o.detail !== undefined) line.detail = o.detail;
  if (o.differs !== undefined)
    line.differs = o.differs.map((d) => ({ member: d.member, recorded: d.recorded, replayed: d.replayed }));
  if (o.work !== undefined) line.work = { recorded: o.work.recorded, replayed: o.work.replayed };
  if (o.evaluator !== undefined) line.evaluator = o.evaluator;
  return `${JSON.stringify(line)}\n`;
}

export function summaryLine(s: ReplaySummary): string {
  return `${JSON.stringify({ summary: { entries: s.entries, match: s.match, mismatch: s.mismatch, notReplayable: s.notReplayable, reasons: s.reasons, ok: s.ok } })}\n`;
}
