import type { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { deadLetterCopy } from '../../adapters/dead-letter-copy.js';
import { moveHandoffToDeadLetter } from '../../adapters/handoff-dead-letter.js';
import { MAX_BATCH_BYTES } from '../../adapters/sqs-message.js';

const rejected = { reason: 'signature-mismatch', detail: 'entry log-0#3 is not signed by ed25519:…' };

describe('moving a refused handoff to its DLQ', () => {
  it('keeps the exact body and carries the reason code, its explanation and the original message id', () => {
    const copy = deadLetterCopy({ Body: '{"forged":true}', MessageId: 'm-1' }, rejected);
    expect(copy.body).toBe('{"forged":true}');
    expect(copy.attributes).toEqual({
      DocketReason: { DataType: 'String', StringValue: 'signature-mismatch' },
      DocketReasonMessage: { DataType: 'String', StringValue: rejected.detail },
      OriginalMessageId: { DataType: 'String', StringValue: 'm-1' },
    });
  });

  it('leaves a body too large to carry its reason on the queue, for the redrive policy, without any call', async () => {
    const calls: unknown[] = [];
    const client = { send: async (c: unknown) => void calls.push(c) } as unknown as SQSClient;
    const out = await moveHandoffToDeadLetter(
      client,
      { queueUrl: 'q', dlqUrl: 'q-dlq' },
      { Body: 'x'.repeat(MAX_BATCH_BYTES - 10), ReceiptHandle: 'h' },
      rejected,
    );
    expect(out).toEqual({ moved: false, why: 'too-large-for-reason-attributes' });
    expect(calls).toEqual([]);
  });
});
