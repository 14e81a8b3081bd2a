/**
 * `docket tail`: follows new ledger entries across every log, one line each (or JSON lines with --json).
 * Starts at the current heads (or at the beginning with --from-start); --once prints what is there and exits.
 */
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger } from '../args.js';
import type { CliIo } from '../io.js';
import { graphRunStatus, parseStoredEntry } from '../../core/ledger/index.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { onStack } from '../on-stack.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket tail [--from-start] [--once] [--interval <ms>] [--json]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { ...SETTING_FLAGS, ...flagTable(['interval'], ['from-start', 'once', 'json']) },
    USAGE,
  );
  const interval = typeof values.interval === 'string' ? parsePositiveInteger(values.interval, '--interval') : 1000;
  const next = new Map<string, number>();
  return onStack(io, 'tail', values, async (stack) => {
    if (!values['from-start']) {
      for (const log of await stack.store.listLogs()) {
        const head = await stack.store.readHead(log);
        next.set(log, head === null ? 0 : head.seq + 1);
      }
    }
    for (;;) {
      for (const log of (await stack.store.listLogs()).sort()) {
        for await (const stored of stack.store.readEntries(log, next.get(log) ?? 0)) {
          const p = parseStoredEntry(stored.body);
          if (values.json)
            io.stdout(
              `${JSON.stringify(p.ok ? { logId: log, seq: stored.seq, entryHash: p.value.entryHash, entry: p.value.entry } : { logId: log, seq: stored.seq, unreadable: p.error })}\n`,
            );
          else
            io.stdout(
              `${p.ok ? summary(p.value.entry) : terminalText(`${log}#${stored.seq}  unreadable: ${p.error.code} ${p.error.detail}`)}\n`,
            );
          next.set(log, stored.seq + 1);
        }
      }
      if (values.once || signal?.aborted) return EXIT.OK;
      await new Promise((r) => setTimeout(r, interval));
    }
  });
}

export function summary(e: SignedEntry): string {
  const what =
    e.kind === 'disposition'
      ? `${e.disposition.kind}${e.disposition.kind === 'outcome' ? ` ${e.disposition.outcomeId}` : ''}${e.disposition.reasons.length ? ` [${e.disposition.reasons.join(',')}]` : ''}${e.disposition.handoff.state === 'requested' ? ' handoff' : ''}`
      : e.kind === 'evaluation-error'
        ? `error ${e.error.class}/${e.error.phase}`
        : e.kind === 'graph-run'
          ? `graph-run ${graphRunStatus(e.run)}`
          : `refused ${e.refusal.code}`;
  // The entry's strings (ids, outcome, codes) are table data: terminal text.
  return terminalText(`${e.time}  ${e.logId}#${e.seq}  ${e.requestId}  ${what}  work ${e.work}`);
}
