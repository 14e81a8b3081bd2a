/**
 * Builds request messages for `docket submit` without re-serializing the documents: the facts and evidence bytes
 * are spliced verbatim into the request text, so the digests the ledger records are of the caller's exact bytes.
 */
import { createHash } from 'node:crypto';
import { readJson } from '../carrier/read-json.js';
import { err, ok, type Result } from '../result.js';
import { topLevelMemberSpans } from '../carrier/member-spans.js';
import { REQUEST_FORMAT, REQUEST_ID_PATTERN } from '../admission/request-format.js';
import { buildGraphRequest } from './graph-request-builder.js';
import { trimJsonWhitespace } from './json-whitespace.js';

export interface RequestParts {
  readonly requestId: string;
  /** "sha256:<hex>" or "id@version". */
  readonly pack: string;
  readonly facts: Uint8Array;
  readonly evidence?: Uint8Array;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

const dec = new TextDecoder('utf-8', { fatal: true });

/** The request text, or why it cannot be built (a document that is not a strict JSON text, a bad id). */
export function buildRequest(p: RequestParts): Result<string, string> {
  if (!REQUEST_ID_PATTERN.test(p.requestId))
    return err(`request id ${JSON.stringify(p.requestId)} must match ${REQUEST_ID_PATTERN.source}`);
  for (const [what, bytes] of [
    ['facts', p.facts],
    ['evidence', p.evidence],
  ] as const) {
    if (bytes === undefined) continue;
    const r = readJson(bytes, { allowLoneSurrogates: true });
    if (!r.ok) return err(`the ${what} document is not a strict JSON text (§2.1): ${r.error.code}: ${r.error.message}`);
  }
  let text = `{"format":"${REQUEST_FORMAT}","requestId":${JSON.stringify(p.requestId)},"pack":${JSON.stringify(p.pack)}`;
  if (p.workBudget !== undefined) text += `,"workBudget":${p.workBudget}`;
  if (p.correlation !== undefined) text += `,"correlation":${JSON.stringify(p.correlation)}`;
  text += `,"facts":${dec.decode(trimJsonWhitespace(p.facts))}`;
  if (p.evidence !== undefined) text += `,"evidence":${dec.decode(trimJsonWhitespace(p.evidence))}`;
  return ok(`${text}}`);
}

/**
 * One JSONL line → a request text. A line that is already a request (it has "format") is sent as written. A line
 * with "facts" (and optionally "evidence", "requestId", "workBudget", "correlation", "pack") is wrapped, its
 * documents sliced exactly from the line; a line with "graph" (and optionally "inputs", "requestId", "workBudget",
 * "correlation") is wrapped into a docket.graph-request/1 the same way, its inputs sliced exactly from the line
 * (docs/graphs.md). A missing id becomes "<idPrefix>-<lineNumber>".
 */
/** The members a graph request line may have: no pack, facts or evidence (a graph request carries none). */
const GRAPH_LINE_MEMBERS = ['graph', 'inputs', 'requestId', 'workBudget', 'correlation'];

export function requestFromLine(
  line: Uint8Array,
  lineNumber: number,
  defaults: { pack?: string; idPrefix: string },
): Result<{ requestId: string; text: string }, string> {
  const r = readJson(line, { allowLoneSurrogates: true });
  if (!r.ok) return err(`not a strict JSON text: ${r.error.code}`);
  if (r.value.kind !== 'object') return err('a line must be a JSON object');
  const m = r.value.members;
  const text = dec.decode(line);
  const id = m.get('requestId');
  if (m.has('format')) {
    if (id?.kind !== 'string') return err('a request line needs a string requestId');
    return ok({ requestId: id.value, text });
  }
  const isGraph = m.has('graph');
  if (!m.has('facts') && !isGraph)
    return err('a line needs "facts", "graph" (a graph request) or a whole request with "format"');
  const spans = topLevelMemberSpans(line);
  const slice = (name: string) => {
    const s = spans.get(name);
    return s ? line.subarray(s.start, s.end) : undefined;
  };
  const budget = m.get('workBudget');
  const requestId = id?.kind === 'string' ? id.value : `${defaults.idPrefix}-${lineNumber}`;
  const corr = slice('correlation');
  const common = {
    requestId,
    ...(budget?.kind === 'number' ? { workBudget: Number(budget.lexeme) } : {}),
    ...(corr ? { correlation: JSON.parse(dec.decode(corr)) as Record<string, string> } : {}),
  };
  if (isGraph) {
    for (const name of m.keys())
      if (!GRAPH_LINE_MEMBERS.includes(name)) return err(`a graph request line has no member ${JSON.stringify(name)}`);
    const graph = m.get('graph')!;
    if (graph.kind !== 'string') return err('"graph" must be a string: sha256:<64 hex> or <id>@<version>');
    const inputs = slice('inputs');
    const built = buildGraphRequest({ ...common, graph: graph.value, ...(inputs ? { inputs } : {}) });
    return built.ok ? ok({ requestId, text: built.value }) : built;
  }
  const pack = m.get('pack');
  const packRef = pack?.kind === 'string' ? pack.value : defaults.pack;
  if (packRef === undefined) return err('no pack: give --pack or a "pack" member');
  const built = buildRequest({
    ...common,
    pack: packRef,
    facts: slice('facts')!,
    ...(slice('evidence') ? { evidence: slice('evidence')! } : {}),
  });
  return built.ok ? ok({ requestId, text: built.value }) : built;
}

/** A stable id prefix for a JSONL file: its base name and the first 8 hex digits of its SHA-256. */
export function idPrefixFor(name: string, bytes: Uint8Array): string {
  const base =
    (name.split(/[\\/]/).pop() ?? 'batch')
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 48) || 'batch';
  const h = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  return `${/^[A-Za-z0-9]/.test(base) ? base : `b${base}`}-${h}`;
}
