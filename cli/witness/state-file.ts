/**
 * The witness state file: read strictly, written atomically (cli/atomic-file.ts), so a crash leaves either the old
 * state or the new one, never half of one.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  emptyWitnessState,
  readWitnessState,
  serializeWitnessState,
  type WitnessState,
} from '../../core/ledger/index.js';
import { writeFileAtomic } from '../atomic-file.js';

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
  writeFileAtomic(path, serializeWitnessState(state));
}
