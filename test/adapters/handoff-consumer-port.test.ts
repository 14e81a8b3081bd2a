import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handoffConsumer } from '../../adapters/handoff-consumer.js';
import { nodeLedgerCrypto } from '../../adapters/node-ledger-crypto.js';
import { sodiumLedgerCrypto } from '../../adapters/sodium-ledger-crypto.js';
import {
  installLedgerCrypto,
  ledgerCrypto,
  portableLedgerCrypto,
  type LedgerCrypto,
} from '../../core/ledger/primitives/crypto-port.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { verifyHandoffText, type HandoffVerifyOptions } from '../../core/pipeline/handoff-verdict.js';
import { POLICY } from '../pipeline/handoff-fixtures.js';

// The consumer verifies with libsodium when the optional sodium-native peer loads
// (docs/adr/0493-handoff-consumer-libsodium-optional-peer.md), and libsodium behind core's strict pre-checks gives
// node:crypto's verdicts (ADR 0240): both are checked here, where sodium-native is installed as a dev dependency.
const CORPUS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'handoffs');
const before = ledgerCrypto();
afterEach(() => void installLedgerCrypto(before));

const sodium = sodiumLedgerCrypto();

/** Every case of the handoff corpora: its text, policy, options and expected verdict. */
function corpusCases() {
  return readdirSync(CORPUS)
    .filter((name) => statSync(join(CORPUS, name)).isDirectory())
    .flatMap((name) => {
      const policy = readTrustPolicy(readFileSync(join(CORPUS, name, 'policy.json')));
      if (!policy.ok) throw new Error(policy.error.detail);
      const lines = readFileSync(join(CORPUS, name, 'messages.jsonl'), 'utf8').split('\n');
      const { cases } = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as {
        cases: { line: number; verdict: string; options?: HandoffVerifyOptions }[];
      };
      return cases.map((c) => ({ text: lines[c.line - 1]!, policy: policy.value, options: c.options ?? {}, ...c }));
    });
}

/** The port with its Ed25519 verification counted, so a test can tell that the port really verified. */
function counted(port: LedgerCrypto): { port: LedgerCrypto; calls: () => number } {
  let calls = 0;
  const verify = port.ed25519Verify!;
  return { port: { ...port, ed25519Verify: (s, m, k) => (calls++, verify(s, m, k)) }, calls: () => calls };
}

describe('the signature port of the handoff consumer', () => {
  it('is libsodium’s verification once the handler is made, where sodium-native loads', () => {
    expect(sodium?.name).toBe('node+libsodium');
    installLedgerCrypto(portableLedgerCrypto);
    handoffConsumer({
      policy: POLICY,
      routeQueue: { key: 'oversight', routeQueues: {} },
      deadLetterQueueUrl: 'unused',
      sqs: { send: async () => ({}) } as never,
      handle: () => undefined,
    });
    expect(ledgerCrypto().name).toBe('node+libsodium');
  });

  it('gives every handoff corpus message its expected verdict under node:crypto and under libsodium alike', () => {
    const cases = corpusCases();
    expect(cases.length).toBeGreaterThan(20);
    const verdicts = [nodeLedgerCrypto, sodium!].map((p) => {
      const port = counted(p);
      installLedgerCrypto(port.port);
      const reasons = cases.map((c) => {
        const v = verifyHandoffText(c.text, c.policy, c.options);
        return v.ok ? 'ok' : v.reason;
      });
      expect(port.calls()).toBeGreaterThan(0);
      return reasons;
    });
    expect(verdicts[0]).toEqual(cases.map((c) => c.verdict));
    expect(verdicts[1]).toEqual(verdicts[0]);
  });
});
