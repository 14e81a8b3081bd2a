/**
 * `docket show <request-id> [--json]`: the request's ledger entry and its disposition (or error, or refusal).
 * Exit 0 when recorded, 1 when unknown (or claimed but not yet recorded).
 */
import { EXIT, parseCommandArgs, reportUsage, fail } from '../args.js';
import type { CliIo } from '../io.js';
import { locateEntry, parseStoredEntry } from '../../core/ledger/index.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { onStack } from '../on-stack.js';
import { describeGraphRunEntry } from '../graph/describe-graph-run.js';
import { terminalLines, terminalText } from '../terminal-text.js';

const USAGE = `docket show <request-id> [--json]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...SETTING_FLAGS, json: { type: 'boolean' } }, USAGE, {
    min: 0,
    max: 1,
  });
  const requestId = positionals[0];
  if (requestId === undefined) return reportUsage(io, 'show', 'name a request id', USAGE);
  return onStack(io, 'show', values, async (stack) => {
    const located = await locateEntry(stack.store, requestId);
    if (!located.ok) return fail(io, 'show', terminalText(located.error.detail), EXIT.FAILED);
    const { position, body } = located.value;
    const parsed = parseStoredEntry(body);
    if (!parsed.ok)
      return fail(
        io,
        'show',
        terminalText(
          `the stored entry ${position.logId}/${position.seq} is ${parsed.error.code}: ${parsed.error.detail}`,
        ),
        EXIT.FAILED,
      );
    if (values.json)
      io.stdout(
        `${JSON.stringify({ logId: position.logId, seq: position.seq, entryHash: parsed.value.entryHash, entry: parsed.value.entry })}\n`,
      );
    else io.stdout(describeEntry(parsed.value.entry, parsed.value.entryHash));
    return EXIT.OK;
  });
}

/** The human form of an entry: what happened first, then where it is recorded and what it binds. */
export function describeEntry(e: SignedEntry, entryHash: string): string {
  if (e.kind === 'graph-run') return describeGraphRunEntry(e, entryHash);
  const lines: string[] = [];
  lines.push(`request   ${e.requestId}`);
  if (e.kind === 'disposition') {
    const d = e.disposition;
    lines.push(
      `result    ${d.kind}${d.kind === 'outcome' ? ` ${d.outcomeId}` : ''}${d.reasons.length ? `  reasons: ${d.reasons.join(', ')}` : ''}`,
    );
    const h = d.handoff;
    lines.push(
      `handoff   ${h.state}${h.triggeredBy ? ` (triggered by ${h.triggeredBy.join(', ')})` : ''}${h.routes ? `  routes: ${h.routes.length ? h.routes.map((r) => `${r.kind}:${r.name}`).join(' | ') : '[]'}` : ''}`,
    );
  } else if (e.kind === 'evaluation-error') {
    lines.push(`result    evaluation error ${e.error.class} (${e.error.phase}) ${e.error.code}`);
    lines.push(`          ${e.error.message}`);
  } else {
    lines.push(`result    admission refusal ${e.refusal.code}`);
    lines.push(`          ${e.refusal.message}`);
  }
  lines.push(`ledger    log ${e.logId} seq ${e.seq}  entry ${entryHash}`);
  lines.push(
    `pack      ${e.pack ? `${e.pack.id ?? '?'}@${e.pack.version ?? '?'} sha256:${e.pack.digest}` : '-'}${e.specVersion ? ` (spec ${e.specVersion})` : ''}`,
  );
  lines.push(`digests   request ${e.requestDigest}`);
  if (e.factsDigest)
    lines.push(`          facts ${e.factsDigest}${e.evidenceDigest ? `  evidence ${e.evidenceDigest}` : ''}`);
  lines.push(`work      ${e.work}${e.workBudget !== null ? ` of ${e.workBudget} units` : ''}`);
  lines.push(`evaluator ${e.evaluator.name} ${e.evaluator.version} build ${e.evaluator.buildDigest.slice(0, 16)}…`);
  lines.push(`signed    ${e.time} by ${e.keyId}`);
  // Every string above is the entry's, and the entry is table data: printed as terminal text.
  return terminalLines(lines);
}
