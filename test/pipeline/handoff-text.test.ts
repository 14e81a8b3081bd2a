import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { handoffMessageBytes } from '../../core/pipeline/handoff-message.js';
import { verifyHandoff, verifyHandoffText, type HandoffVerifyOptions } from '../../core/pipeline/handoff-verdict.js';
import { POLICY, ROUTED, signedDisposition } from './handoff-fixtures.js';

// verifyHandoffText reads an SQS body's text as is; its verdicts must be verifyHandoff's over the body's UTF-8 bytes
// (docs/adr/0494-handoff-consumer-reads-body-text.md).
const enc = new TextEncoder();
const CORPUS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'handoffs');

const oversight = handoffMessageBytes({
  entryBody: signedDisposition(ROUTED).body,
  routeIndex: 1,
  shape: 'route',
  destination: 'configured',
  target: { kind: 'human-role', name: 'Oversight' },
}).body;

const sameVerdict = (text: string, policy = POLICY, options: HandoffVerifyOptions = {}): void =>
  expect(verifyHandoffText(text, policy, options)).toEqual(verifyHandoff(enc.encode(text), policy, options));

describe('verifying a handoff from the text an SQS body carries', () => {
  it('gives the verdict of its UTF-8 bytes for every message of the forged-handoff corpus', () => {
    const names = readdirSync(CORPUS).filter((n) => statSync(join(CORPUS, n)).isDirectory());
    let compared = 0;
    for (const name of names) {
      const policy = readTrustPolicy(readFileSync(join(CORPUS, name, 'policy.json')));
      if (!policy.ok) throw new Error(policy.error.detail);
      const lines = readFileSync(join(CORPUS, name, 'messages.jsonl'), 'utf8')
        .split('\n')
        .slice(0, -1);
      const { cases } = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as {
        cases: { line: number; options?: HandoffVerifyOptions }[];
      };
      for (const c of cases) {
        sameVerdict(lines[c.line - 1]!, policy.value, c.options ?? {});
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('refuses a genuine message re-spelled out of RFC 8785 form, as its bytes are refused', () => {
    const spaced = oversight.replace('"routeIndex":1', '"routeIndex": 1');
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(oversight)).reverse()));
    const escaped = oversight.replace('"shape":"route"', '"shape":"\\u0072oute"');
    for (const text of [spaced, reordered, escaped, `\uFEFF${oversight}`]) {
      const v = verifyHandoffText(text, POLICY);
      expect(v.ok ? 'ok' : v.reason).toBe('message-malformed');
      sameVerdict(text);
    }
  });

  it('reads a lone surrogate as the U+FFFD its UTF-8 encoding writes, as the bytes are read', () => {
    const lone = oversight.replace('"name":"Oversight"', '"name":"Oversight\uD800"');
    const escapedLone = oversight.replace('"name":"Oversight"', '"name":"Oversight\\ud800"');
    for (const text of [lone, escapedLone, 'not json \uDC00', '']) sameVerdict(text);
    expect(verifyHandoffText(oversight, POLICY).ok).toBe(true);
  });
});
