/**
 * Builds request messages for `docket submit` without re-serializing the documents: the facts and evidence bytes of
 * an evaluation request, and the inputs bytes of a graph request (`docket.graph-request/1`, docs/pipeline.md "Graph
 * requests"), are spliced verbatim into the request text, so the digests the ledger records are of the caller's
 * exact bytes.
 */
import { createHash } from 'node:crypto';
import { readJson } from '../carrier/read-json.js';
import { err, ok, type Result } from '../result.js';
import { topLevelMemberSpans } from '../carrier/member-spans.js';
import { GRAPH_REQUEST_FORMAT } from '../admission/graph-request.js';
import {
  PACK_ALIAS_PATTERN,
  PACK_DIGEST_PATTERN,
  REQUEST_FORMAT,
  REQUEST_ID_PATTERN,
} from '../admission/request-format.js';

interface RequestCommon {
  readonly requestId: string;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

export interface RequestParts extends RequestCommon {
  /** "sha256:<hex>" or "id@version". */
  readonly pack: string;
  readonly facts: Uint8Array;
  readonly evidence?: Uint8Array;
}

export interface GraphRequestParts extends RequestCommon {
  /** A published graph: "sha256:<hex>" or "id@version" (ADR 0340). */
  readonly graph: string;
  /** The inputs document (graph-semantics.md A2, decision 2); absent = every node gets `{}` (A10). */
  readonly inputs?: Uint8Array;
}

const dec = new TextDecoder('utf-8', { fatal: true });

/**
 * A document's value text: its bytes without the JSON whitespace around them (RFC 8259 ws: space, tab, LF, CR).
 * Inside a request the member value starts and ends at the value itself, so this is exactly what the entry's digest
 * covers: a facts file's SHA-256 equals the recorded factsDigest when the file has no leading or trailing whitespace.
 */
function valueText(b: Uint8Array): string {
  const ws = (x: number | undefined) => x === 0x20 || x === 0x09 || x === 0x0a || x === 0x0d;
  let start = 0;
  let end = b.length;
  while (start < end && ws(b[start])) start += 1;
  while (end > start && ws(b[end - 1])) end -= 1;
  return dec.decode(b.subarray(start, end));
}

/** Why a given document is not a strict JSON text (§2.1), or undefined. */
function documentProblem(what: string, bytes: Uint8Array | undefined): string | undefined {
  const r = bytes === undefined ? undefined : readJson(bytes, { allowLoneSurrogates: true });
  return r === undefined || r.ok
    ? undefined
    : `the ${what} document is not a strict JSON text (§2.1): ${r.error.code}: ${r.error.message}`;
}

/** The request text up to its documents: format, id, the pack or graph it names, its budget and correlation. */
function textHead(format: string, named: string, p: RequestCommon): string {
  let text = `{"format":"${format}","requestId":${JSON.stringify(p.requestId)},${named}`;
  if (p.workBudget !== undefined) text += `,"workBudget":${p.workBudget}`;
  if (p.correlation !== undefined) text += `,"correlation":${JSON.stringify(p.correlation)}`;
  return text;
}

const idProblem = (id: string): string | undefined =>
  REQUEST_ID_PATTERN.test(id) ? undefined : `request id ${JSON.stringify(id)} must match ${REQUEST_ID_PATTERN.source}`;

/** The request text, or why it cannot be built (a document that is not a strict JSON text, a bad id). */
export function buildRequest(p: RequestParts): Result<string, string> {
  const problem =
    idProblem(p.requestId) ?? documentProblem('facts', p.facts) ?? documentProblem('evidence', p.evidence);
  if (problem !== undefined) return err(problem);
  let text = `${textHead(REQUEST_FORMAT, `"pack":${JSON.stringify(p.pack)}`, p)},"facts":${valueText(p.facts)}`;
  if (p.evidence !== undefined) text += `,"evidence":${valueText(p.evidence)}`;
  return ok(`${text}}`);
}

/** The request text, or why it cannot be built (a bad id or graph reference, inputs that are not a strict JSON text). */
export function buildGraphRequest(p: GraphRequestParts): Result<string, string> {
  // A published graph is named as a pack is (ADR 0340): its digest, or its alias id@version.
  const badGraph = !PACK_DIGEST_PATTERN.test(p.graph) && !PACK_ALIAS_PATTERN.test(p.graph);
  const problem =
    idProblem(p.requestId) ??
    (badGraph ? `graph ${JSON.stringify(p.graph)} is neither sha256:<64 hex> nor <id>@<version>` : undefined) ??
    documentProblem('inputs', p.inputs);
  if (problem !== undefined) return err(problem);
  const text = textHead(GRAPH_REQUEST_FORMAT, `"graph":${JSON.stringify(p.graph)}`, p);
  return ok(`${text}${p.inputs !== undefined ? `,"inputs":${valueText(p.inputs)}` : ''}}`);
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
