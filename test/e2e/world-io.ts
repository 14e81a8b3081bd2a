/**
 * What the end-to-end suites do to an E2eWorld from the outside, as a requester, an auditor and a routed consumer
 * would: publish the example packs, submit requests, wait for a request's ledger entry, drain a route queue.
 */
import { readFileSync } from 'node:fs';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sendMessage } from '../../adapters/sqs.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { readHandoffMessage, type HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import type { E2eWorld } from './harness.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

export const enc = new TextEncoder();
export const ex = (p: string): string => readFileSync(new URL(`../../examples/${p}`, import.meta.url), 'utf8');
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const EXAMPLE_PACKS = {
  triage: 'data-request-intake-triage.json',
  vendor: 'vendor-onboarding-target.json',
  refund: 'direct-exception-no-escalation.json',
  leave: 'routes-all-filtered.json',
  incident: 'extended-profile-fanout.json',
  trial: 'requires-extension.json',
} as const;

export type ExamplePack = keyof typeof EXAMPLE_PACKS;

export interface WorldIo {
  readonly digests: Readonly<Record<ExamplePack, string>>;
  request(id: string, pack: ExamplePack, facts: string, evidence?: string, extra?: string): string;
  submit(body: string): Promise<void>;
  entryOf(
    requestId: string,
    timeoutMs?: number,
  ): Promise<{ entry: SignedEntry; entryHash: string; logId: string; seq: number }>;
  drain(
    url: string,
    expectAtLeast?: number,
    timeoutMs?: number,
  ): Promise<{ body: string; attributes: Record<string, string> }[]>;
}

/** Publishes the example packs into the world's registry and returns the requester/consumer helpers bound to it. */
export async function worldIo(w: Pick<E2eWorld, 'registry' | 'sqs' | 'store' | 'queueUrl'>): Promise<WorldIo> {
  const digests: Record<string, string> = {};
  for (const [name, file] of Object.entries(EXAMPLE_PACKS))
    digests[name] = (await w.registry.putPack(enc.encode(ex(file)))).digest;
  return {
    digests: digests as Record<ExamplePack, string>,
    request: (id, pack, facts, evidence, extra = '') =>
      `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${digests[pack]}","facts":${facts}${evidence ? `,"evidence":${evidence}` : ''}${extra}}`,
    async submit(body) {
      await sendMessage(w.sqs, w.queueUrl('intake'), { body });
    },
    async entryOf(requestId, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const p = await findPosition(w.store, requestId);
        if (p) {
          for await (const e of w.store.readEntries(p.logId, p.seq, p.seq)) {
            const parsed = parseStoredEntry(e.body);
            if (!parsed.ok) throw new Error(`stored entry unreadable: ${parsed.error.detail}`);
            return { ...parsed.value, logId: p.logId, seq: p.seq };
          }
        }
        await sleep(100);
      }
      throw new Error(`no entry for ${requestId} within ${timeoutMs} ms`);
    },
    /** Receives every message currently on a queue (deleting them). */
    async drain(url, expectAtLeast = 0, timeoutMs = 10_000) {
      const out: { body: string; attributes: Record<string, string> }[] = [];
      const until = Date.now() + timeoutMs;
      for (;;) {
        const r = await w.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: out.length >= expectAtLeast ? 0 : 1,
            MessageAttributeNames: ['All'],
          }),
        );
        for (const m of r.Messages ?? []) {
          out.push({
            body: m.Body ?? '',
            attributes: Object.fromEntries(
              Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? '']),
            ),
          });
          await w.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
        }
        if ((r.Messages ?? []).length === 0 && (out.length >= expectAtLeast || Date.now() > until)) return out;
      }
    },
  };
}

/** Parses drained messages strictly as handoff messages. */
export const handoffs = (msgs: { body: string }[]): HandoffMessage[] =>
  msgs.map((m) => {
    const r = readHandoffMessage(enc.encode(m.body));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  });
