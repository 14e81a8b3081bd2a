/**
 * The functions' own metrics read back from their log lines: CloudWatch Embedded Metric Format, as Powertools
 * Metrics prints them (functions/lib/batch-metrics.ts, functions/lib/observability.ts). On the local stack the
 * function instances' stdout goes to `.docket/local/stack.log` (localstack/daemon.ts); `docket bench live` reads the
 * lines appended there during its run. A line is anyone's writing: one that is not an EMF object of the namespace
 * asked for, or whose values are not finite numbers, is skipped.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** One metric's values from one EMF line, with the line's dimensions (service, logId, …) and timestamp. */
export interface MetricSample {
  readonly name: string;
  readonly values: readonly number[];
  readonly dimensions: Readonly<Record<string, string>>;
  /** Epoch milliseconds (`_aws.Timestamp`). */
  readonly timestamp: number;
}

interface EmfDirective {
  readonly Namespace?: unknown;
  readonly Dimensions?: unknown;
  readonly Metrics?: unknown;
}

/** The samples of `namespace` in `text` (one JSON object per line; other lines are ignored). */
export function emfSamples(text: string, namespace: string): MetricSample[] {
  const out: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const start = line.indexOf('{"');
    if (start < 0 || !line.includes('"_aws"')) continue;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line.slice(start)) as Record<string, unknown>;
    } catch {
      continue;
    }
    out.push(...samplesOf(doc, namespace));
  }
  return out;
}

function samplesOf(doc: Record<string, unknown>, namespace: string): MetricSample[] {
  const aws = doc._aws as { Timestamp?: unknown; CloudWatchMetrics?: unknown } | undefined;
  if (typeof aws !== 'object' || aws === null || !Array.isArray(aws.CloudWatchMetrics)) return [];
  const timestamp = typeof aws.Timestamp === 'number' ? aws.Timestamp : NaN;
  const out: MetricSample[] = [];
  for (const d of aws.CloudWatchMetrics as EmfDirective[]) {
    if (d?.Namespace !== namespace || !Array.isArray(d.Metrics)) continue;
    const dimensions: Record<string, string> = {};
    for (const set of Array.isArray(d.Dimensions) ? (d.Dimensions as unknown[]) : [])
      for (const key of Array.isArray(set) ? set : [])
        if (typeof key === 'string' && typeof doc[key] === 'string') dimensions[key] = doc[key] as string;
    for (const m of d.Metrics as { Name?: unknown }[]) {
      if (typeof m?.Name !== 'string') continue;
      const raw = doc[m.Name];
      const values = (Array.isArray(raw) ? raw : [raw]).filter(
        (v): v is number => typeof v === 'number' && Number.isFinite(v),
      );
      if (values.length > 0) out.push({ name: m.Name, values, dimensions, timestamp });
    }
  }
  return out;
}

/** A log file's size now: where a run starts reading what gets appended. */
export function logOffset(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The text appended to `path` since `offset` (empty when the file does not exist). */
export function logTextSince(path: string, offset: number): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return '';
  }
  try {
    const size = statSync(path).size;
    // A log rotated or truncated since: read it whole.
    const from = size < offset ? 0 : offset;
    const buf = Buffer.alloc(size - from);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
