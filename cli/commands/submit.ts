/**
 * `docket submit`: puts evaluation requests on the intake queue and prints their request ids (docs/pipeline.md).
 *   docket submit --pack <sha256:…|id@version> --facts f.json [--evidence e.json] [--id ID] [--budget N]
 *   docket submit --file batch.jsonl [--pack REF]      (progress bar on stderr; one id per line on stdout)
 * Documents are spliced into the request verbatim (core/pipeline/request-builder.ts), never re-serialized.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { EXIT, parseCommandArgs, parsePositiveInteger } from '../args.js';
import { readInput, type CliIo } from '../io.js';
import { buildRequest, idPrefixFor, requestFromLine } from '../../core/pipeline/index.js';
import { MAX_REQUEST_BYTES } from '../../core/admission/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { explainStackError, openStack } from '../../stack/clients.js';

const USAGE = `docket submit --pack <sha256:…|id@version> --facts <file> [--evidence <file>] [--id <request-id>] [--budget <units>]
       docket submit --file <requests.jsonl> [--pack <ref>] [--quiet]
${SETTINGS_HELP}`;

const FLAGS = {
  ...SETTING_FLAGS,
  pack: { type: 'string' },
  facts: { type: 'string' },
  evidence: { type: 'string' },
  id: { type: 'string' },
  budget: { type: 'string' },
  file: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, FLAGS, { min: 0, max: 0 });
  if (values.help) {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  const v = values as Record<string, string | boolean | undefined>;
  let requests: { requestId: string; text: string }[];
  let failures = 0;
  if (typeof v.file === 'string') {
    if (v.facts !== undefined || v.evidence !== undefined || v.id !== undefined)
      return usage(io, '--file cannot be combined with --facts, --evidence or --id');
    const bytes = await readInput(v.file, io);
    const prefix = idPrefixFor(v.file, bytes);
    requests = [];
    let start = 0;
    let lineNo = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      lineNo += 1;
      const line = bytes.subarray(start, i > start && bytes[i - 1] === 0x0d ? i - 1 : i);
      start = i + 1;
      if (line.length === 0 || line.every((b) => b === 0x20 || b === 0x09)) continue;
      const r = requestFromLine(line, lineNo, {
        ...(typeof v.pack === 'string' ? { pack: v.pack } : {}),
        idPrefix: prefix,
      });
      if (!r.ok) {
        failures += 1;
        io.stderr(`docket submit: ${v.file}:${lineNo}: ${r.error} (not submitted)\n`);
      } else requests.push(r.value);
    }
  } else {
    if (typeof v.pack !== 'string' || typeof v.facts !== 'string')
      return usage(io, 'give --pack and --facts, or --file');
    const built = buildRequest({
      requestId: typeof v.id === 'string' ? v.id : `req-${randomUUID()}`,
      pack: v.pack,
      facts: await readInput(v.facts, io),
      ...(typeof v.evidence === 'string' ? { evidence: await readInput(v.evidence, io) } : {}),
      ...(typeof v.budget === 'string' ? { workBudget: parsePositiveInteger(v.budget, '--budget') } : {}),
    });
    if (!built.ok) {
      io.stderr(`docket submit: ${built.error}\n`);
      return EXIT.FAILED;
    }
    requests = [{ requestId: (JSON.parse(built.value) as { requestId: string }).requestId, text: built.value }];
  }
  for (const r of requests) {
    const size = Buffer.byteLength(r.text);
    if (size > MAX_REQUEST_BYTES)
      io.stderr(
        `docket submit: warning: ${r.requestId} is ${size} bytes, over the ${MAX_REQUEST_BYTES}-byte limit; it will be recorded as request-too-large\n`,
      );
  }
  const settings = resolveSettings(v as never, process.env);
  const stack = openStack(settings);
  const progress = typeof v.file === 'string' && !v.quiet ? progressBar(io, requests.length) : undefined;
  try {
    const url = await stack.queueUrl(settings.intakeQueue);
    let sent = 0;
    for (let i = 0; i < requests.length; i += 10) {
      const chunk = requests.slice(i, i + 10);
      const out = await stack.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: chunk.map((r, j) => ({ Id: String(j), MessageBody: r.text })),
        }),
      );
      const failed = new Set((out.Failed ?? []).map((f) => Number(f.Id)));
      chunk.forEach((r, j) => {
        if (failed.has(j)) {
          failures += 1;
          io.stderr(
            `docket submit: ${r.requestId}: not sent (${out.Failed?.find((f) => Number(f.Id) === j)?.Message ?? 'error'})\n`,
          );
        } else io.stdout(`${r.requestId}\n`);
      });
      sent += chunk.length;
      progress?.(sent);
    }
  } catch (e) {
    io.stderr(`docket submit: ${explainStackError(e, settings)}\n`);
    return EXIT.FAILED;
  } finally {
    stack.close();
  }
  return failures > 0 ? EXIT.FAILED : EXIT.OK;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`docket submit: ${message}\nusage: ${USAGE}\n`);
  return EXIT.USAGE;
}

/** A one-line progress bar on stderr, redrawn in place. */
function progressBar(io: CliIo, total: number): (done: number) => void {
  return (done) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
  };
}
