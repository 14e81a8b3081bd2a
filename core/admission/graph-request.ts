/**
 * The graph request message, format docket.graph-request/1 (schema/graph-request.schema.json; docs/pipeline.md
 * "Graph requests"; docs/adr/0360-graph-runs-in-the-pipeline.md): one message on the same intake queue as evaluation
 * requests, naming a published graph (ADR 0340) and an inputs document (graph-semantics.md A10). Read strictly like
 * an evaluation request (ADR 0070): the strict carrier first (Core §2.1), then the closed shape; the inputs document
 * is kept as the exact byte slice the requester wrote, so its digest and the run see the same bytes. Same size cap,
 * same request-id and correlation rules, same refusal codes.
 */
import { readJson } from '../carrier/read-json.js';
import type { JsonValue } from '../carrier/json-value.js';
import { ok, type Result } from '../result.js';
import { documentSlices } from './document-slices.js';
import { topLevelMemberSpans } from '../carrier/member-spans.js';
import { MAX_REQUEST_BYTES } from './request-format.js';
import { readHead, readOptions, readRef, refuse, tooLarge, type PackRef, type RequestError } from './request.js';

/** The exact format selector a graph request carries. */
export const GRAPH_REQUEST_FORMAT = 'docket.graph-request/1';

/** The members a graph request may carry; anything else is refused (closed object). */
export const GRAPH_REQUEST_MEMBERS: readonly string[] = [
  'format',
  'requestId',
  'graph',
  'inputs',
  'workBudget',
  'correlation',
];

/** A published graph: its exact-bytes digest, or the alias `id@version` its publication wrote (ADR 0340). */
export type GraphRef = PackRef;

export interface GraphRequest {
  readonly requestId: string;
  readonly graph: GraphRef;
  /** Exact bytes of the `inputs` member value (graph-semantics.md A10); absent = every node gets `{}`. */
  readonly inputs?: Uint8Array;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

/** Whether an intake request is a graph request (the two formats share one queue). */
export const isGraphRequest = (r: object): r is GraphRequest => Object.hasOwn(r, 'graph');

/**
 * Reads one graph request message (its exact bytes). A message whose `format` is not the graph format is refused
 * `request-format-unsupported` (keeping its request id when readable), so the intake reader can fall back to it.
 */
export function readGraphRequest(bytes: Uint8Array): Result<GraphRequest, RequestError> {
  // Lone surrogates are admitted at this layer, as for facts (request.ts): the inputs document is judged by the
  // graph layer (A10); our own members are ASCII-bounded below.
  const parsed = readJson(bytes, { allowLoneSurrogates: true });
  let root: JsonValue;
  let inputs: Uint8Array | undefined;
  if (parsed.ok) root = parsed.value;
  else {
    // As for facts (ADR 0176): an inputs document that is not a strict JSON text is the graph layer's to refuse (A10,
    // a recorded refused run), when the envelope around it reads strictly.
    const cut = documentSlices(bytes, ['inputs']);
    const envelope = cut === null ? undefined : readJson(cut.envelope, { allowLoneSurrogates: true });
    if (cut === null || envelope === undefined || !envelope.ok)
      return refuse(
        'request-not-json',
        `the request is not a strict JSON text (§2.1): ${parsed.error.code}: ${parsed.error.message}`,
      );
    root = envelope.value;
    inputs = cut.documents.get('inputs')?.slice();
  }
  if (root.kind !== 'object') return refuse('request-not-object', 'the request must be a JSON object');
  const m = root.members;
  if (bytes.length > MAX_REQUEST_BYTES) return tooLarge(bytes, m);
  const head = readHead(m, GRAPH_REQUEST_FORMAT, GRAPH_REQUEST_MEMBERS);
  if (!head.ok) return head;
  const requestId = head.value;
  const graph = readRef(m.get('graph'));
  if (graph === undefined)
    return refuse('request-graph-invalid', 'graph must be "sha256:<64 lowercase hex>" or "<id>@<version>"', requestId);
  const options = readOptions(m, requestId);
  if (!options.ok) return options;
  if (inputs === undefined && m.has('inputs')) {
    const span = topLevelMemberSpans(bytes).get('inputs');
    if (span !== undefined) inputs = bytes.slice(span.start, span.end);
  }
  return ok({
    requestId,
    graph,
    ...(inputs !== undefined ? { inputs } : {}),
    ...options.value,
  });
}
