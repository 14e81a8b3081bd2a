/**
 * The batch loop (ADR 0200): input chunks in, one result line out per input line, in order. Memory stays constant
 * in the number of lines: at most one input chunk, one line of at most MAX_LINE_BYTES and FLUSH_CHARS of pending
 * output are held. Output is written in blocks and, when the sink says it is full, the loop waits for it to drain
 * before reading more, so a slow reader slows the batch down instead of filling memory.
 */
import type { EvaluationResult } from '../../core/evaluate/index.js';
import { LineSplitter, type SplitLine } from './line-splitter.js';
import { MAX_LINE_BYTES } from './line-evaluator.js';
import { resultLine } from './result-line.js';

export interface BatchSink {
  readonly write: (text: string) => void;
  /** undefined when the sink can take more now; otherwise settles when it can (a stream's 'drain'). */
  readonly drained: () => Promise<void> | undefined;
}

export interface BatchCounts {
  readonly lines: number;
  readonly errors: number;
}

/** Pending output is written once it reaches this many UTF-16 code units (≈ 64 KiB for ASCII lines). */
export const FLUSH_CHARS = 65_536;

export async function streamBatch(
  chunks: AsyncIterable<Uint8Array>,
  sink: BatchSink,
  answer: (line: SplitLine) => EvaluationResult,
): Promise<BatchCounts> {
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  let pending = '';
  let lines = 0;
  let errors = 0;
  const take = (line: SplitLine): void => {
    const result = answer(line);
    lines++;
    if (result.kind === 'error') errors++;
    pending += `${resultLine(result)}\n`;
  };
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    sink.write(pending);
    pending = '';
    const wait = sink.drained();
    if (wait !== undefined) await wait;
  };
  for await (const chunk of chunks) {
    splitter.feed(chunk);
    for (let line = splitter.next(); line !== undefined; line = splitter.next()) {
      take(line);
      if (pending.length >= FLUSH_CHARS) await flush();
    }
    await flush(); // what this chunk answered is written before waiting for more input (a reader on a pipe sees it)
  }
  const last = splitter.end();
  if (last !== undefined) take(last);
  await flush();
  return { lines, errors };
}
