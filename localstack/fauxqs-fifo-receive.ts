/**
 * A ReceiveMessage on an SQS FIFO queue returns as many messages of one message group as it asks for (up to 10),
 * oldest group first: SQS "attempts to return as many messages with the same message group ID as possible", and a
 * Lambda FIFO batch of one log holds up to ten records. fauxqs 2.4 returns at most **one** message per group per
 * receive, so locally a batch never held two records of one log and the ledger's group commit (ADRs 0350, 0400) never
 * ran over the wire. Patched once, before any stack starts, as fauxqs-sync.ts patches fauxqs's persistence
 * (docs/adr/0401-local-fifo-receive-takes-a-group-s-messages.md): SqsQueue's `dequeueFifo` is rebuilt from its own
 * source with the one `break` after a group's first message removed, so it goes on taking that group's messages in
 * order and counts each in the group's lock, as it already counts one. Any other shape of the source is refused
 * (FauxqsFifoReceiveError): a fauxqs upgrade is reviewed, never silently left unpatched.
 */
import { randomUUID } from 'node:crypto';
import { fauxqsModule, patchOnce } from './fauxqs-module.js';

export class FauxqsFifoReceiveError extends Error {
  readonly code = 'fauxqs-fifo-receive-unknown';
}

const PATCHED = Symbol.for('docket.fauxqs.fifo-receive-takes-a-group');
/** The one statement after which fauxqs leaves a group: the lock count of the message just taken, then `break`. */
const ONE_PER_GROUP =
  /(this\.fifoLockedGroups\.set\(groupId, \(this\.fifoLockedGroups\.get\(groupId\) \?\? 0\) \+ 1\);)\s*break;/g;

export const useFifoGroupReceive = patchOnce(patch);

/** The source of a `dequeueFifo` method that takes a group's messages up to the count (exported for its test). */
export function groupReceiveSource(method: string): string {
  const matches = method.match(ONE_PER_GROUP) ?? [];
  if (!method.startsWith('dequeueFifo(') || matches.length !== 1)
    throw new FauxqsFifoReceiveError(
      'fauxqs SqsQueue.dequeueFifo has changed shape; review localstack/fauxqs-fifo-receive.ts',
    );
  return `function ${method.replace(ONE_PER_GROUP, '$1')}`;
}

async function patch(): Promise<void> {
  const mod = await fauxqsModule<{ SqsQueue?: { prototype: Record<string, unknown> } }>(
    'sqs/sqsStore.js',
    (m) => new FauxqsFifoReceiveError(m),
  );
  const proto = mod.SqsQueue?.prototype;
  if (!proto || typeof proto.dequeueFifo !== 'function')
    throw new FauxqsFifoReceiveError('fauxqs SqsQueue has changed shape; review localstack/fauxqs-fifo-receive.ts');
  if (proto[PATCHED as never]) return;
  // The method's only free name besides globals is the module's randomUUID (node:crypto's, passed in).
  const source = groupReceiveSource((proto.dequeueFifo as () => unknown).toString());
  proto.dequeueFifo = new Function('randomUUID', `return ${source};`)(randomUUID) as () => unknown;
  proto[PATCHED as never] = true as never;
}
