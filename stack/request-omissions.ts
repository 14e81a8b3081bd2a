/**
 * The archive cross-check of a stage the CLI reaches (docs/verify.md "Requests without an entry"; ADR 0292): the
 * reader (adapters/request-omissions.ts) over this stage's archive, every log the ledger table holds, the intake queue
 * and the FIFO ledger queue, and both dead-letter queues on that path. The rule itself is pure:
 * core/ledger/verify/omission.ts. The rejects queue (`docket-<stage>-rejects`, where the evaluate function sends what
 * it cannot record, with its reason) is not read: its messages carry no `DeadLetterQueueSourceArn` and excuse no
 * omission; only SQS's redrive to a DLQ does (ADR 0455, docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md).
 */
import {
  crossCheckArchive as readCrossCheck,
  requestPath,
  type ArchiveCrossCheck,
} from '../adapters/request-omissions.js';
import type { ArchiveCheck } from '../core/ledger/index.js';
import { explainStackError, isMissingResource, type StackClients } from './clients.js';
import { intakeDlqName, ledgerDlqName, requestPathQueues } from './settings.js';

export type { ArchiveCrossCheck } from '../adapters/request-omissions.js';

export async function crossCheckArchive(
  stack: StackClients,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<ArchiveCrossCheck> {
  const [intake, ledger] = await Promise.all(
    requestPathQueues(stack.settings).map(async (name) => ({ name, url: await stack.queueUrl(name) })),
  );
  return readCrossCheck(
    {
      archive: stack.archive,
      store: stack.store,
      logIds: await stack.store.listLogs(),
      sqs: stack.sqs,
      pathQueues: requestPath(intake!, ledger!),
      deadLetterQueueUrls: [
        await stack.queueUrl(intakeDlqName(stack.settings)),
        await stack.queueUrl(ledgerDlqName(stack.settings)),
      ],
    },
    nowSeconds,
  );
}

/** A stage without the request archive table or a path queue: nothing to cross-check, which is said, not hidden. */
export { isMissingResource } from './clients.js';

/** The cross-check, or why a stage has nothing to cross-check; any other failure to read throws (no verdict). */
export async function archiveCheckOf(stack: StackClients): Promise<ArchiveCheck> {
  try {
    return await crossCheckArchive(stack);
  } catch (e) {
    if (!isMissingResource(e)) throw e;
    return { missing: explainStackError(e, stack.settings) };
  }
}
