/**
 * Corpus scenarios about whose word a checkpoint is (docs/adr/0120-separate-entry-and-checkpoint-keys.md,
 * docs/adr/0121-checkpoints-verify-before-signing.md): a forged entry laundered by a checkpoint, a forged entry in a
 * retired key's range under a newer key's checkpoint, a checkpoint key vouching for its own entries, the first entry
 * past a matched checkpoint, a key's range ending exactly at a checkpoint, and a checkpoint of another table in the
 * same environment. Expected findings are written by hand from docs/verify.md, never copied from the verifier.
 */
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import type { Finding } from '../../core/ledger/verify/findings.js';
import {
  bodyOf,
  buildLog,
  checkpointOf,
  checkpointV2Of,
  K1,
  K2,
  KC,
  KC2,
  policyText,
  PROD,
  recordOf,
  signRaw,
  unsignedEntry,
  withBody,
  type Rec,
} from './fixtures.js';
import type { Scenario } from './scenario.js';

const ent = (code: Finding['code'], logId: string, seq: number): Finding => ({ code, logId, seq }) as Finding;
const from0 = (logs: readonly string[]) => logs.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
const LOGS = ['log-a', 'log-b'];

/** K1 signs entries and KC checkpoints of both logs from seq 0 on (docket.trust-policy/2). */
const SEPARATE_KEYS_POLICY = policyText(LOGS, [
  { keys: K1, role: 'entries', validity: from0(LOGS) },
  { keys: KC, role: 'checkpoints', validity: from0(LOGS) },
]);
/** K1 signs log-a 0–2, K2 from 3 on; KC checkpoints log-a up to seq 2 and then retires, KC2 from seq 3 on. */
const ROTATED_KEYS_POLICY = policyText(LOGS, [
  {
    keys: K1,
    role: 'entries',
    validity: [
      { logId: 'log-a', fromSeq: 0, toSeq: 2 },
      { logId: 'log-b', fromSeq: 0, toSeq: null },
    ],
  },
  { keys: K2, role: 'entries', validity: [{ logId: 'log-a', fromSeq: 3, toSeq: null }] },
  {
    keys: KC,
    role: 'checkpoints',
    validity: [
      { logId: 'log-a', fromSeq: 0, toSeq: 2 },
      { logId: 'log-b', fromSeq: 0, toSeq: null },
    ],
  },
  { keys: KC2, role: 'checkpoints', validity: [{ logId: 'log-a', fromSeq: 3, toSeq: null }] },
]);
/** The docket.trust-policy/1 of a single key, K1 (entries and checkpoints), as deployed before separate keys. */
const SINGLE_KEY_POLICY = policyText(LOGS, [{ keys: K1, validity: from0(LOGS) }]);
/** docket.trust-policy/1: K1 signs log-a 0–2 and rotates out; K2 signs log-a from seq 3 on (both roles each). */
const V1_ROTATION_POLICY = policyText(LOGS, [
  {
    keys: K1,
    validity: [
      { logId: 'log-a', fromSeq: 0, toSeq: 2 },
      { logId: 'log-b', fromSeq: 0, toSeq: null },
    ],
  },
  { keys: K2, validity: [{ logId: 'log-a', fromSeq: 3, toSeq: null }] },
]);

/**
 * What an attacker with write access to the table and no key puts at the head of a log: a well-formed entry with
 * the right chain link, digests and a pinned key id, whose signature is not a signature.
 */
function forgedEntry(log: readonly Rec[], logId: string, seq: number, keyIdOf = K1): Rec {
  const prev = seq === 0 ? null : entryHashOf((log[seq - 1] as Rec).body);
  const honest = bodyOf(recordOf(signRaw(unsignedEntry(logId, seq, prev, keyIdOf) as never, keyIdOf), logId, seq));
  honest.requestId = `${logId}-forged-${seq}`;
  honest.requestDigest = sha256Hex(`forged ${logId} ${seq}`);
  honest.signature = sha256Hex(`not a signature ${seq}`) + sha256Hex(`still not ${seq}`);
  return recordOf(canonicalText(honest), logId, seq);
}

/** Honest entries appended after `log`'s last record, chained on top of it, each signed by keyAt(seq). */
function chainOn(log: Rec[], count: number, keyAt: (seq: number) => typeof K1): void {
  for (let i = 0; i < count; i++) {
    const last = log[log.length - 1] as Rec;
    const seq = last.seq + 1;
    const keys = keyAt(seq);
    const body = signRaw(unsignedEntry(last.logId, seq, entryHashOf(last.body), keys) as never, keys);
    log.push(recordOf(body, last.logId, seq));
  }
}

export function trustScenarios(): Scenario[] {
  const out: Scenario[] = [];
  const add = (s: Scenario) => out.push(s);

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 6));
    chainOn(a, 2, () => K1);
    add({
      name: 'forged-head-then-checkpoint-laundering',
      description:
        'Single-key deployment: a forged head log-a 6 (right chain link, pinned key id, no real signature), genuine entries chained on it, then the old non-verifying writer checkpoints log-a at 9 (format /1): a /1 checkpoint vouches for no signature, so both modes name the forgery.',
      ledger: [...a, ...b],
      policy: SINGLE_KEY_POLICY,
      checkpoints: [checkpointOf(a, 'log-a', 4), checkpointOf(a, 'log-a', 9), checkpointOf(b, 'log-b', 4)],
      expected: [ent('signature-mismatch', 'log-a', 6)],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 6));
    chainOn(a, 2, () => K1);
    add({
      name: 'forged-head-then-own-key-checkpoint',
      description:
        'Single-key deployment: a forged head log-a 6, then a format /2 checkpoint at 9 by K1 — the entry key itself: a key never vouches for entries in its own name, so both modes name the forgery.',
      ledger: [...a, ...b],
      policy: SINGLE_KEY_POLICY,
      checkpoints: [checkpointV2Of(a, 'log-a', 9, K1), checkpointV2Of(b, 'log-b', 4, K1)],
      expected: [ent('signature-mismatch', 'log-a', 6)],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 6));
    chainOn(a, 2, () => K1);
    add({
      name: 'forged-head-then-unverified-checkpoint-key-checkpoint',
      description:
        'Separate keys: a forged head log-a 6, then the checkpoint key KC signs log-a at 9 in format /1 (a writer not known to verify): only a /2 checkpoint vouches, so both modes name the forgery.',
      ledger: [...a, ...b],
      policy: SEPARATE_KEYS_POLICY,
      checkpoints: [checkpointV2Of(a, 'log-a', 4), checkpointOf(a, 'log-a', 9, KC), checkpointV2Of(b, 'log-b', 4)],
      expected: [ent('signature-mismatch', 'log-a', 6)],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 6));
    chainOn(a, 2, () => K1);
    add({
      name: 'verifying-checkpoint-vouches-for-covered-entries',
      description:
        'Separate keys: log-a 6 carries no real signature yet KC signed a format /2 checkpoint over it (a verifying writer never would: its key was misused). The checkpoint path trusts KC for covered entries — the stated trust of docs/verify.md — and --all-signatures finds it.',
      ledger: [...a, ...b],
      policy: SEPARATE_KEYS_POLICY,
      checkpoints: [checkpointV2Of(a, 'log-a', 9), checkpointV2Of(b, 'log-b', 4)],
      expected: [],
      expectedAllSignatures: [ent('signature-mismatch', 'log-a', 6)],
    });
  }

  {
    const a = buildLog('log-a', 2);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 2));
    chainOn(a, 3, () => K2);
    add({
      name: 'forged-entry-in-retired-key-range',
      description:
        'Rotation under a /1 policy: log-a 2 (K1 range) is forged, K2 entries 3–5 chain on it, and K2 signs a format /2 checkpoint at 6. K2 is valid at seq 5 (an anchor) but not for seqs 0–2, so it vouches for none of them: both modes name the forgery.',
      ledger: [...a, ...b],
      policy: V1_ROTATION_POLICY,
      checkpoints: [checkpointOf(a, 'log-a', 2, K1), checkpointV2Of(a, 'log-a', 6, K2), checkpointOf(b, 'log-b', 4)],
      expected: [ent('signature-mismatch', 'log-a', 2)],
    });
  }

  {
    const a = buildLog('log-a', 2);
    const b = buildLog('log-b', 6);
    a.push(forgedEntry(a, 'log-a', 2));
    chainOn(a, 3, () => K2);
    add({
      name: 'forged-entry-in-retired-key-range-under-newer-checkpoint-key',
      description:
        'Separate, rotated keys: log-a 2 (K1 and KC range) is forged, K2 entries 3–5 chain on it, and the newer checkpoint key KC2 (valid from seq 3) signs a format /2 checkpoint at 6: KC2 does not cover seqs 0–2, so both modes name the forgery.',
      ledger: [...a, ...b],
      policy: ROTATED_KEYS_POLICY,
      checkpoints: [
        checkpointV2Of(a, 'log-a', 2, KC),
        checkpointV2Of(a, 'log-a', 6, KC2),
        checkpointV2Of(b, 'log-b', 4, KC),
      ],
      expected: [ent('signature-mismatch', 'log-a', 2)],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    const cps = [checkpointV2Of(a, 'log-a', 4), checkpointV2Of(a, 'log-a', 6), checkpointV2Of(b, 'log-b', 4)];
    a[4] = withBody(a[4] as Rec, canonicalText({ ...bodyOf(a[4] as Rec), work: 9 }));
    add({
      name: 'edited-first-entry-past-matched-checkpoint',
      description:
        'Separate keys, verifying checkpoints at log-a 4 and 6; then log-a 4 — the first entry past the checkpoint the ledger still matches — has a signed member edited: its signature is checked on the checkpoint path too.',
      ledger: [...a, ...b],
      policy: SEPARATE_KEYS_POLICY,
      checkpoints: cps,
      expected: [
        ent('signature-mismatch', 'log-a', 4),
        { code: 'chain-broken', logId: 'log-a', seq: 5 },
        { code: 'root-mismatch', logId: 'log-a', treeSize: 6 },
      ],
    });
  }

  {
    const a = buildLog('log-a', 6, (s) => (s <= 2 ? K1 : K2));
    const b = buildLog('log-b', 6);
    add({
      name: 'checkpoint-at-end-of-key-range',
      description:
        'Rotation at seq 3: K1 signs the checkpoint of tree size 3, whose last entry (seq 2) is the last of its range: an anchor.',
      ledger: [...a, ...b],
      policy: V1_ROTATION_POLICY,
      checkpoints: [checkpointOf(a, 'log-a', 3, K1), checkpointOf(a, 'log-a', 6, K2), checkpointOf(b, 'log-b', 4)],
      expected: [],
    });
  }

  {
    const a = buildLog('log-a', 6, (s) => (s <= 2 ? K1 : K2));
    const b = buildLog('log-b', 6);
    add({
      name: 'checkpoint-before-start-of-key-range',
      description:
        'Rotation at seq 3: K2 signs the checkpoint of tree size 3, whose last entry (seq 2) is K1 range, not K2: refused.',
      ledger: [...a, ...b],
      policy: V1_ROTATION_POLICY,
      checkpoints: [checkpointOf(a, 'log-a', 3, K2), checkpointOf(a, 'log-a', 6, K2), checkpointOf(b, 'log-b', 4)],
      expected: [{ code: 'checkpoint-key-not-valid-at-seq', logId: 'log-a', treeSize: 3 }],
    });
  }

  {
    const a = buildLog('log-a', 6);
    const b = buildLog('log-b', 6);
    add({
      name: 'checkpoint-from-another-table-same-environment',
      description:
        'A valid K1 checkpoint of log-a at 6 whose origin names the prod environment but another table (a restored copy): an authority is an environment and a table, so it is not an anchor.',
      ledger: [...a, ...b],
      policy: SINGLE_KEY_POLICY,
      checkpoints: [
        checkpointOf(a, 'log-a', 4),
        checkpointOf(a, 'log-a', 6, K1, { environment: PROD.environment, table: 'docket-prod-ledger-restored' }),
        checkpointOf(b, 'log-b', 4),
      ],
      expected: [{ code: 'checkpoint-unauthorized-origin', logId: 'log-a', treeSize: 6 }],
    });
  }

  return out;
}
