/**
 * `docket handoffs`' memory between runs: the handoff ids it printed, per route queue, in a local file
 * (default .docket/local/handoffs-seen.json; format core/pipeline/handoffs-seen.ts; ADR 0460). Read strictly,
 * written atomically; one consumer per file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readHandoffsSeen, serializeHandoffsSeen, type HandoffsSeen } from '../core/pipeline/index.js';
import { writeFileAtomic } from './atomic-file.js';

export class HandoffsSeenFileError extends Error {
  readonly code = 'handoffs-seen-unreadable';
}

/** The file's memory; an absent file is an empty one (a first run). */
export function loadHandoffsSeen(path: string): HandoffsSeen {
  if (!existsSync(path)) return {};
  const r = readHandoffsSeen(new Uint8Array(readFileSync(path)));
  if (!r.ok) throw new HandoffsSeenFileError(`${path}: ${r.error.code}: ${r.error.detail}`);
  return r.value;
}

/** Replaces `queue`'s ids in the file (re-read first, so other queues' lists written meanwhile are kept). */
export function saveHandoffsSeen(path: string, queue: string, ids: readonly string[]): void {
  writeFileAtomic(path, serializeHandoffsSeen(loadHandoffsSeen(path), queue, ids));
}
