/**
 * An unsigned admission-refusal ledger entry (the smallest entry kind) for tests. The members a refusal
 * before evaluation leaves empty (no correlation, spec version, facts, evidence, extensions or budget; zero work:
 * docs/adr/0052-admission-refusals-and-absent-members.md) are written here once; the caller names the rest.
 */
import {
  ENTRY_FORMAT,
  type EntryRefusal,
  type EvaluatorRef,
  type RefusalEntryBody,
} from '../../core/ledger/entries/entry-types.js';

export interface RefusalEntryParts {
  readonly slot: { readonly logId: string; readonly seq: number; readonly prevHash: string | null };
  readonly requestId: string;
  readonly requestDigest: string;
  readonly packDigest: string;
  readonly evaluator: EvaluatorRef;
  readonly time: string;
  readonly keyId: string;
  readonly refusal: EntryRefusal;
}

export function refusalEntryBody(p: RefusalEntryParts): RefusalEntryBody {
  return {
    format: ENTRY_FORMAT,
    kind: 'admission-refusal',
    logId: p.slot.logId,
    seq: p.slot.seq,
    prevHash: p.slot.prevHash,
    requestId: p.requestId,
    requestDigest: p.requestDigest,
    correlation: null,
    pack: { digest: p.packDigest },
    specVersion: null,
    factsDigest: null,
    evidenceDigest: null,
    supportedExtensions: [],
    workBudget: null,
    work: 0,
    evaluator: p.evaluator,
    time: p.time,
    keyId: p.keyId,
    refusal: p.refusal,
  };
}
