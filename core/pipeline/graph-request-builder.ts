/**
 * Builds graph request messages (`docket.graph-request/1`, docs/pipeline.md "Graph requests") for
 * `docket submit --graph`, as core/pipeline/request-builder.ts builds evaluation requests: the inputs document's
 * bytes are spliced verbatim into the request text, never re-serialized, so the digest the ledger records for the
 * inputs is of the caller's exact bytes.
 */
import { readJson } from '../carrier/read-json.js';
import { err, ok, type Result } from '../result.js';
import { PACK_ALIAS_PATTERN, PACK_DIGEST_PATTERN, REQUEST_ID_PATTERN } from '../admission/request-format.js';
import { GRAPH_REQUEST_FORMAT } from '../admission/graph-request.js';
import { trimJsonWhitespace } from './json-whitespace.js';

export interface GraphRequestParts {
  readonly requestId: string;
  /** A published graph: "sha256:<hex>" or "id@version" (ADR 0340). */
  readonly graph: string;
  /** The inputs document (graph-semantics.md A2, decision 2); absent = every node gets `{}` (A10). */
  readonly inputs?: Uint8Array;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

const dec = new TextDecoder('utf-8', { fatal: true });

/** The request text, or why it cannot be built (a bad id or graph reference, inputs that are not a strict JSON text). */
export function buildGraphRequest(p: GraphRequestParts): Result<string, string> {
  if (!REQUEST_ID_PATTERN.test(p.requestId))
    return err(`request id ${JSON.stringify(p.requestId)} must match ${REQUEST_ID_PATTERN.source}`);
  // A published graph is named as a pack is (ADR 0340): its digest, or its alias id@version.
  if (!PACK_DIGEST_PATTERN.test(p.graph) && !PACK_ALIAS_PATTERN.test(p.graph))
    return err(`graph ${JSON.stringify(p.graph)} is neither sha256:<64 hex> nor <id>@<version>`);
  if (p.inputs !== undefined) {
    const r = readJson(p.inputs, { allowLoneSurrogates: true });
    if (!r.ok) return err(`the inputs document is not a strict JSON text (§2.1): ${r.error.code}: ${r.error.message}`);
  }
  let text = `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":${JSON.stringify(p.requestId)},"graph":${JSON.stringify(p.graph)}`;
  if (p.workBudget !== undefined) text += `,"workBudget":${p.workBudget}`;
  if (p.correlation !== undefined) text += `,"correlation":${JSON.stringify(p.correlation)}`;
  if (p.inputs !== undefined) text += `,"inputs":${dec.decode(trimJsonWhitespace(p.inputs))}`;
  return ok(`${text}}`);
}
