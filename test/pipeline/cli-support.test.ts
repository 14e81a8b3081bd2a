import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildRequest, idPrefixFor, requestFromLine } from '../../core/pipeline/request-builder.js';
import { readRequest } from '../../core/admission/request.js';
import { ledgerDlqName, requestPathQueues, resolveSettings, routeQueueName } from '../../stack/settings.js';
import { defaultConfig } from '../../infra/config.js';
import { resourceNames } from '../../infra/names.js';
import { handoffMessageBytes } from '../../core/pipeline/handoff-message.js';
import { DIRECT, signedDisposition, TARGETED } from './handoff-fixtures.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const DIGEST = `sha256:${'c'.repeat(64)}`;
const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8'));

describe('building requests for docket submit', () => {
  it('splices the facts and evidence bytes verbatim so the reader slices back the same bytes', () => {
    const facts = enc.encode('{ "n" : 1.10 , "s":"\\u00e9" }\n');
    const evidence = enc.encode('{"a":"present"}');
    const built = buildRequest({ requestId: 'r-1', pack: DIGEST, facts, evidence, workBudget: 500 });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const read = readRequest(enc.encode(built.value));
    expect(read.ok && [dec.decode(read.value.facts), dec.decode(read.value.evidence!), read.value.workBudget]).toEqual([
      dec.decode(facts).trimEnd(),
      '{"a":"present"}',
      500,
    ]);
  });

  it('refuses a facts document that is not a strict JSON text instead of submitting it', () => {
    const built = buildRequest({ requestId: 'r-1', pack: DIGEST, facts: enc.encode('{"a":1,"a":2}') });
    expect(built.ok ? 'ok' : built.error).toMatch(/duplicate-member/);
  });

  it('wraps a JSONL line of facts and evidence with a stable id, and passes a whole request line through', () => {
    const line = enc.encode('{"facts":{"x": 1},"evidence":{"e":"absent"}}');
    const r = requestFromLine(line, 7, { pack: DIGEST, idPrefix: 'batch-1234abcd' });
    expect(r.ok && r.value.requestId).toBe('batch-1234abcd-7');
    const whole = `{"format":"${REQUEST_FORMAT}","requestId":"w-1","pack":"${DIGEST}","facts":{}}`;
    const w = requestFromLine(enc.encode(whole), 1, { idPrefix: 'p' });
    expect(w.ok && [w.value.requestId, w.value.text]).toEqual(['w-1', whole]);
    expect(requestFromLine(enc.encode('not json'), 2, { pack: DIGEST, idPrefix: 'p' }).ok).toBe(false);
    expect(idPrefixFor('dir/my batch.jsonl', line)).toBe(idPrefixFor('other/my batch.jsonl', line));
    expect(idPrefixFor('dir/my batch.jsonl', line)).toMatch(/^my-batch-[0-9a-f]{8}$/);
  });
});

describe('stack settings of the pipeline commands', () => {
  it('takes a flag over the environment over the local default', () => {
    expect(resolveSettings({}, {})).toMatchObject({
      endpoint: 'http://127.0.0.1:4566',
      stage: 'local',
      ledgerTable: 'docket-local-ledger',
      intakeQueue: 'docket-local-intake',
    });
    const env = { DOCKET_STAGE: 'prod', AWS_ENDPOINT_URL: 'http://x:1', LEDGER_TABLE: 'custom' };
    expect(resolveSettings({}, env)).toMatchObject({
      endpoint: 'http://x:1',
      stage: 'prod',
      ledgerTable: 'custom',
      packsTable: 'docket-prod-packs',
    });
    expect(resolveSettings({ endpoint: 'aws', table: 't2' }, env)).toMatchObject({
      endpoint: undefined,
      ledgerTable: 't2',
    });
  });

  it('names route queues from their configuration key', () => {
    const s = resolveSettings({ stage: 'dev' }, {});
    expect([
      routeQueueName(s, 'review'),
      routeQueueName(s, 'unrouted'),
      routeQueueName(s, 'docket-dev-route-x'),
    ]).toEqual(['docket-dev-route-review', 'docket-dev-unrouted', 'docket-dev-route-x']);
  });

  it('names the request path and the ledger DLQ exactly as the CDK app creates them', () => {
    const s = resolveSettings({ stage: 'dev' }, {});
    const n = resourceNames('dev', defaultConfig('dev'));
    expect(requestPathQueues(s)).toEqual([n.intake.queue, n.ledgerQueue.queue]);
    expect(ledgerDlqName(s)).toBe(n.ledgerQueue.dlq);
  });
});

describe('the published schemas agree with the code', () => {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });

  it('accepts every handoff message the builder emits', () => {
    const validate = ajv.compile(schema('handoff-message.schema.json'));
    const disposition = {
      kind: 'unresolved' as const,
      reasons: ['unknown' as const],
      handoff: {
        state: 'requested' as const,
        triggeredBy: ['unknown' as const],
        routes: [{ kind: 'queue' as const, name: 'Review' }],
      },
    };
    const messages = [
      handoffMessageBytes({
        entryBody: signedDisposition(disposition).body,
        routeIndex: 0,
        shape: 'route',
        destination: 'configured',
        target: { kind: 'queue', name: 'Review' },
      }),
      handoffMessageBytes({
        entryBody: signedDisposition(TARGETED).body,
        routeIndex: 0,
        shape: 'target',
        destination: 'unmapped-target',
        target: { kind: 'system', name: 'X' },
      }),
      handoffMessageBytes({
        entryBody: signedDisposition(DIRECT).body,
        routeIndex: 0,
        shape: 'no-destination',
        destination: 'no-destination',
      }),
    ];
    for (const m of messages) expect(validate(JSON.parse(m.body)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...JSON.parse(messages[2]!.body), target: { kind: 'queue', name: 'Y' } })).toBe(false);
  });

  it('accepts the requests the reader accepts and rejects what it refuses, on a shared sample', () => {
    const validate = ajv.compile(schema('evaluation-request.schema.json'));
    const samples = [
      `{"format":"${REQUEST_FORMAT}","requestId":"a-1","pack":"${DIGEST}","facts":{}}`,
      `{"format":"${REQUEST_FORMAT}","requestId":"a-1","pack":"p@1","facts":[1],"evidence":{},"workBudget":10,"correlation":{"k":"v"}}`,
      `{"format":"${REQUEST_FORMAT}","requestId":" a","pack":"${DIGEST}","facts":{}}`,
      `{"format":"${REQUEST_FORMAT}","requestId":"a","pack":"sha256:xyz","facts":{}}`,
      `{"format":"${REQUEST_FORMAT}","requestId":"a","pack":"${DIGEST}"}`,
      `{"format":"${REQUEST_FORMAT}","requestId":"a","pack":"${DIGEST}","facts":1,"other":1}`,
      `{"format":"${REQUEST_FORMAT}","requestId":"a","pack":"${DIGEST}","facts":1,"correlation":{"k":1}}`,
      `{"format":"docket.evaluation-request/9","requestId":"a","pack":"${DIGEST}","facts":1}`,
    ];
    for (const text of samples)
      expect([text, validate(JSON.parse(text))]).toEqual([text, readRequest(enc.encode(text)).ok]);
  });
});
