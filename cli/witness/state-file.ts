/**
 * The witness state file: read strictly, written atomically (a temp file in the same directory, fsync, rename), so
 * a crash leaves either the old state or the new one, never half of one.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import {
  emptyWitnessState,
  readWitnessState,
  serializeWitnessState,
  type WitnessState,
} from '../../core/ledger/index.js';

export class WitnessStateFileError extends Error {
  readonly code = 'witness-state-unreadable';
}

/** The state at `path`; an absent file is the empty state (a new witness). */
export function loadWitnessState(path: string): WitnessState {
  if (!existsSync(path)) return emptyWitnessState();
  const r = readWitnessState(new Uint8Array(readFileSync(path)));
  if (!r.ok) throw new WitnessStateFileError(`${path}: ${r.error.detail}`);
  return r.value;
}

export async function saveWitnessState(path: string, state: WitnessState): Promise<void> {
  const text = serializeWitnessState(state);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
