import { describe, expect, it } from 'vitest';
import { readRequest } from '../../core/admission/request.js';
import { topLevelMemberSpans } from '../../core/carrier/member-spans.js';
import { MAX_REQUEST_BYTES, REQUEST_FORMAT } from '../../core/admission/request-format.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const DIGEST = `sha256:${'ab'.repeat(32)}`;

function request(extra: string, facts = '{"a":1}'): Uint8Array {
  return enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"r-1","pack":"${DIGEST}","facts":${facts}${extra}}`);
}

describe('the evaluation request reader', () => {
  it('keeps the facts and evidence members as the exact bytes the requester wrote', () => {
    const facts = '{ "amount" : 1.50 ,\n "name":"caf\\u00e9", "n": 1e400 }';
    const evidence = '{"receipt" :"present"}';
    const r = readRequest(request(`, "evidence" :  ${evidence}  `, facts));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(dec.decode(r.value.facts)).toBe(facts);
    expect(dec.decode(r.value.evidence!)).toBe(evidence);
    expect(r.value.pack).toEqual({ kind: 'digest', digest: DIGEST });
  });

  it('finds a member whose name is written with escapes and slices scalar values exactly', () => {
    const bytes = enc.encode('{"fa\\u0063ts" : -0.0e+1 , "x":"}\\"{" }');
    const spans = topLevelMemberSpans(bytes);
    const f = spans.get('facts')!;
    expect(dec.decode(bytes.subarray(f.start, f.end))).toBe('-0.0e+1');
    const x = spans.get('x')!;
    expect(dec.decode(bytes.subarray(x.start, x.end))).toBe('"}\\"{"');
  });

  it('reads an alias pack reference, a work budget and correlation metadata', () => {
    const r = readRequest(
      enc.encode(
        `{"format":"${REQUEST_FORMAT}","requestId":"r-2","pack":"https://x.example/p@1.0.0","facts":[],"workBudget":5000,"correlation":{"ticket":"T-9"}}`,
      ),
    );
    expect(r.ok && r.value).toMatchObject({
      pack: { kind: 'alias', alias: 'https://x.example/p@1.0.0' },
      workBudget: 5000,
      correlation: { ticket: 'T-9' },
    });
  });

  it('refuses duplicate member names without a request id, because the carrier cannot say which one is meant', () => {
    const r = readRequest(
      enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"a","requestId":"b","pack":"${DIGEST}","facts":{}}`),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('request-not-json');
    expect(r.error.requestId).toBeUndefined();
  });

  it('keeps the request id on a refusal once the id is readable, so the refusal can be recorded', () => {
    const cases: [string, string][] = [
      [`{"format":"${REQUEST_FORMAT}","requestId":"r-3","pack":"nope","facts":{}}`, 'request-pack-invalid'],
      [`{"format":"${REQUEST_FORMAT}","requestId":"r-3","pack":"${DIGEST}"}`, 'request-facts-missing'],
      [
        `{"format":"${REQUEST_FORMAT}","requestId":"r-3","pack":"${DIGEST}","facts":1,"extra":1}`,
        'request-member-unknown',
      ],
      [
        `{"format":"${REQUEST_FORMAT}","requestId":"r-3","pack":"${DIGEST}","facts":1,"workBudget":1.5}`,
        'request-work-budget-invalid',
      ],
      [
        `{"format":"${REQUEST_FORMAT}","requestId":"r-3","pack":"${DIGEST}","facts":1,"correlation":{"k":1}}`,
        'request-correlation-invalid',
      ],
      [
        `{"format":"docket.evaluation-request/2","requestId":"r-3","pack":"${DIGEST}","facts":1}`,
        'request-format-unsupported',
      ],
    ];
    for (const [text, code] of cases) {
      const r = readRequest(enc.encode(text));
      expect(r.ok ? 'ok' : `${r.error.code}/${r.error.requestId}`).toBe(`${code}/r-3`);
    }
  });

  it('refuses a request id outside the documented charset or length, leaving it unidentified', () => {
    for (const id of ['', ' x', 'a b', 'x'.repeat(129), 'é']) {
      const r = readRequest(
        enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":${JSON.stringify(id)},"pack":"${DIGEST}","facts":{}}`),
      );
      expect(r.ok ? 'ok' : `${r.error.code}/${r.error.requestId ?? '-'}`).toBe('request-id-invalid/-');
    }
  });

  it('refuses a request over the size limit under its own id', () => {
    const pad = 'x'.repeat(MAX_REQUEST_BYTES);
    const r = readRequest(request('', `{"pad":"${pad}"}`));
    expect(r.ok ? 'ok' : `${r.error.code}/${r.error.requestId}`).toBe('request-too-large/r-1');
  });

  it('refuses bytes that are not UTF-8 and a root that is not an object', () => {
    const bad = readRequest(new Uint8Array([0x7b, 0xff, 0x7d]));
    expect(bad.ok ? 'ok' : bad.error.code).toBe('request-not-json');
    const arr = readRequest(enc.encode('[]'));
    expect(arr.ok ? 'ok' : arr.error.code).toBe('request-not-object');
  });
});
