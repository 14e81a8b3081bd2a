/**
 * Corpus scenarios about entries that record draft features (format docket.ledger-entry/2, ADR 0220) and the trust
 * policy's per-log permission for them (format docket.trust-policy/3, ADR 0222). Expected findings are written by
 * hand from docs/verify.md ("Draft features"), never copied from the verifier.
 *
 * Ledger: logs log-a and log-b, six honest /1 entries each by K1; log-a 6 is a /2 entry by K1 recording
 * ["rfc0008-quantifiers"] (or the defect the scenario names). Checkpoints by KC (/2) at log-a 4 and log-b 4, so
 * log-a 4–6 and log-b 4–5 are an unanchored tail whose signatures are always checked.
 */
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import type { Finding } from '../../core/ledger/verify/findings.js';
import {
  bodyOf,
  BUILD,
  buildLog,
  checkpointV2Of,
  K1,
  KC,
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
const LOGS = ['log-a', 'log-b'];
const from0 = LOGS.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
const QUANTIFIERS = 'rfc0008-quantifiers';

/** K1 signs entries and KC checkpoints of both logs (docket.trust-policy/2: no draft feature is permitted). */
const POLICY_2 = policyText(LOGS, [
  { keys: K1, role: 'entries', validity: from0 },
  { keys: KC, role: 'checkpoints', validity: from0 },
]);

/** The same keys as a docket.trust-policy/3 with the given per-log allow-lists. */
function policy3(draftFeatures: readonly { logId: string; allow: readonly string[] }[]): string {
  return `${JSON.stringify(
    {
      format: 'docket.trust-policy/3',
      logs: LOGS,
      keys: [
        { keyId: K1.keyId, publicKey: toHex(K1.publicKey), role: 'entries', validity: from0 },
        { keyId: KC.keyId, publicKey: toHex(KC.publicKey), role: 'checkpoints', validity: from0 },
      ],
      authorities: [PROD],
      evaluatorBuilds: [BUILD],
      draftFeatures,
    },
    null,
    2,
  )}\n`;
}

/** log-a 0–5 and log-b 0–5 honest; log-a 6 built from `at6` (a body, signed by K1 unless the scenario re-signs). */
function ledgerWith(at6: (a: Rec[]) => Rec): { ledger: Rec[]; checkpoints: ReturnType<typeof checkpointV2Of>[] } {
  const a = buildLog('log-a', 6);
  const b = buildLog('log-b', 6);
  a.push(at6(a));
  return { ledger: [...a, ...b], checkpoints: [checkpointV2Of(a, 'log-a', 4), checkpointV2Of(b, 'log-b', 4)] };
}

/** A /2 entry for log-a 6 recording `features`, honestly chained and signed by K1. */
function v2At6(a: Rec[], features: readonly string[] = [QUANTIFIERS]): Rec {
  const u = unsignedEntry('log-a', 6, entryHashOf((a[5] as Rec).body), K1, {
    format: 'docket.ledger-entry/2',
    draftFeatures: [...features],
  }) as unknown as Record<string, unknown>;
  return recordOf(signRaw(u, K1), 'log-a', 6);
}

export function draftFeatureScenarios(): Scenario[] {
  const out: Scenario[] = [];
  const add = (s: Scenario) => out.push(s);

  add({
    name: 'draft-features-permitted',
    description:
      'log-a 6 is a docket.ledger-entry/2 recording rfc0008-quantifiers, and the /3 policy permits that feature on log-a.',
    ...ledgerWith((a) => v2At6(a)),
    policy: policy3([{ logId: 'log-a', allow: [QUANTIFIERS] }]),
    expected: [],
  });

  add({
    name: 'draft-features-forbidden-for-the-log',
    description:
      'log-a 6 records rfc0008-quantifiers; the /3 policy permits it on log-b only, so for log-a it is forbidden.',
    ...ledgerWith((a) => v2At6(a)),
    policy: policy3([{ logId: 'log-b', allow: [QUANTIFIERS] }]),
    expected: [ent('draft-features-not-allowed', 'log-a', 6)],
  });

  add({
    name: 'draft-features-under-a-policy-without-the-member',
    description:
      'log-a 6 records rfc0008-quantifiers under a /2 policy, written before draft features existed: it permits none.',
    ...ledgerWith((a) => v2At6(a)),
    policy: POLICY_2,
    expected: [ent('draft-features-not-allowed', 'log-a', 6)],
  });

  add({
    name: 'draft-features-rewritten-by-table-writer',
    description:
      'log-a 6 was a /2 entry recording rfc0008-quantifiers; a table writer without the key rewrote it as a /1 entry ' +
      'without draftFeatures (projection kept consistent) to pass a forbidding policy: the signature no longer matches.',
    ...ledgerWith((a) => {
      const honest = bodyOf(v2At6(a));
      const { draftFeatures: _hidden, ...rest } = honest;
      return withBody(v2At6(a), canonicalText({ ...rest, format: 'docket.ledger-entry/1' }));
    }),
    policy: policy3([]),
    expected: [ent('signature-mismatch', 'log-a', 6)],
  });

  add({
    name: 'draft-features-list-rewritten-by-table-writer',
    description:
      'log-a 6 records rfc0008-quantifiers; a table writer without the key rewrote the list to another name the policy ' +
      'permits: the signature no longer matches.',
    ...ledgerWith((a) => withBody(v2At6(a), canonicalText({ ...bodyOf(v2At6(a)), draftFeatures: ['rfc0009-other'] }))),
    policy: policy3([{ logId: 'log-a', allow: ['rfc0009-other'] }]),
    expected: [ent('signature-mismatch', 'log-a', 6)],
  });

  add({
    name: 'draft-features-member-on-v1-entry',
    description:
      'log-a 6 is format docket.ledger-entry/1 with a draftFeatures member, validly signed by K1: version 1 has no such ' +
      'member, so the strict reader refuses it.',
    ...ledgerWith((a) => {
      const u = unsignedEntry('log-a', 6, entryHashOf((a[5] as Rec).body), K1, {
        draftFeatures: [QUANTIFIERS],
      }) as unknown as Record<string, unknown>;
      return recordOf(signRaw(u, K1), 'log-a', 6);
    }),
    policy: policy3([{ logId: 'log-a', allow: [QUANTIFIERS] }]),
    expected: [ent('malformed', 'log-a', 6)],
  });

  add({
    name: 'draft-features-empty-on-v2-entry',
    description: 'log-a 6 is format docket.ledger-entry/2 with an empty draftFeatures list, validly signed: malformed.',
    ...ledgerWith((a) => v2At6(a, [])),
    policy: policy3([{ logId: 'log-a', allow: [QUANTIFIERS] }]),
    expected: [ent('malformed', 'log-a', 6)],
  });

  add({
    name: 'draft-features-unknown-to-this-evaluator',
    description:
      'log-a 6 records rfc9999-future, a feature this evaluator does not know, and the /3 policy permits it: verify ' +
      'accepts it (the format names features by pattern; replay reports it not-replayable).',
    ...ledgerWith((a) => v2At6(a, ['rfc9999-future'])),
    policy: policy3([{ logId: 'log-a', allow: ['rfc9999-future'] }]),
    expected: [],
  });

  return out;
}
