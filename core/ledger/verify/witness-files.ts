/**
 * `verify --witnesses` inputs from file bytes (docs/verify.md "Witnesses"): the witness policy and the cosigned
 * notes of each `--cosigned` file, a `docket.checkpoint-notes/1` export or a witness's `docket.witness-state/1`.
 * Shared by the CLI and the offline page, so both read them alike; any unreadable file gives no verdict.
 */
import { err, ok, type Result } from '../../result.js';
import { readNotesExport } from '../export/notes-export.js';
import { readWitnessPolicy, type WitnessPolicy } from '../witness/witness-policy.js';
import { readWitnessState } from '../witness/witness-state.js';
import type { NoVerdict } from './findings.js';

export interface WitnessInputs {
  readonly policy: WitnessPolicy;
  readonly notes: readonly string[];
  /** Seconds since the epoch: the caller's clock (core has none). */
  readonly now: number;
}

export interface NamedBytes {
  /** How the file is named in a no-verdict detail (its path, or the name the auditor chose). */
  readonly name: string;
  readonly bytes: Uint8Array;
}

export function readWitnessFiles(
  policy: NamedBytes,
  cosigned: readonly NamedBytes[],
  now: number,
): Result<WitnessInputs, NoVerdict> {
  const p = readWitnessPolicy(policy.bytes);
  if (!p.ok) return err({ code: 'witness-policy-unreadable', detail: `${policy.name}: ${p.error.detail}` });
  const notes: string[] = [];
  for (const f of cosigned) {
    const asNotes = readNotesExport(f.bytes);
    if (asNotes.ok) {
      notes.push(...asNotes.value.map((n) => n.note));
      continue;
    }
    const asState = readWitnessState(f.bytes);
    if (!asState.ok) return err({ code: 'notes-unreadable', detail: `${f.name}: ${asNotes.error.detail}` });
    notes.push(...[...asState.value.values()].map((l) => l.note));
  }
  return ok({ policy: p.value, notes, now });
}
