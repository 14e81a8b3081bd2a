/**
 * The caller's inputs document (A2 "Caller inputs", A10, B4): one JSON object keyed by root node id, each entry
 * `{facts?, evidence?}`, plus for 0.2.0-draft documents the reserved "caller" entry (Docket's decision 2). Checks in
 * the A10 order, names walked in sorted order, each name's checks before the next name's.
 */
import { readJson, type CarrierErrorCode, type JsonObject, type JsonValue } from '../carrier/index.js';
import { err, ok, type Result } from '../result.js';
import { GRAPH_LIMITS, type InvocationCode } from './codes.js';
import { EXIT } from '../exit-codes.js';
import { CALLER, type GraphDocument } from './document.js';
import { refusal, type GraphRefusal } from './refusal.js';

export interface NodeInputs {
  /** Any JSON value (A2); `{}` for a node without an entry. */
  readonly facts: JsonValue;
  readonly evidence: JsonObject | undefined;
}

export interface CallerInputs {
  /** Root pack node id → its own inputs. */
  readonly nodes: ReadonlyMap<string, NodeInputs>;
  /** The "caller" entry of a 0.2.0-draft run; undefined when absent. */
  readonly caller: { readonly facts: JsonValue | undefined; readonly evidence: JsonObject | undefined } | undefined;
}

export const EMPTY_FACTS: JsonObject = Object.freeze({ kind: 'object', members: new Map(), v: 1 });

/** A carrier resource limit keeps its own JPS-RESOURCE-* code (A10 item 3). */
const RESOURCE_CODES: Partial<Record<CarrierErrorCode, InvocationCode>> = {
  'limit-depth': 'JPS-RESOURCE-DEPTH',
  'limit-string-bytes': 'JPS-RESOURCE-STRING-BYTES',
  'limit-number-bytes': 'JPS-RESOURCE-NUMBER-BYTES',
  'limit-collection-size': 'JPS-RESOURCE-COLLECTION-SIZE',
};

const invocation = (code: InvocationCode, message: string): Result<never, GraphRefusal> =>
  err(refusal('invocation', code, EXIT.GRAPH_INVOCATION, message));

export function readGraphInputs(bytes: Uint8Array | undefined, doc: GraphDocument): Result<CallerInputs, GraphRefusal> {
  if (bytes === undefined) return ok({ nodes: new Map(), caller: undefined }); // A10: every node gets {}
  if (bytes.length > GRAPH_LIMITS.inputsBytes)
    return err(
      refusal(
        'invocation',
        'JPS-RESOURCE-GRAPH-INPUTS-BYTE-LIMIT',
        EXIT.GRAPH_IO,
        `the inputs document is ${bytes.length} bytes; the limit is ${GRAPH_LIMITS.inputsBytes} (A10)`,
      ),
    );
  if (bytes.length === 0) return invocation('JPS-GRAPH-INPUTS-JSON', 'the inputs document is empty (A10)');
  const tree = readJson(bytes, { limits: { documentBytes: GRAPH_LIMITS.inputsBytes } });
  if (!tree.ok)
    return invocation(
      RESOURCE_CODES[tree.error.code] ?? 'JPS-GRAPH-INPUTS-JSON',
      `the inputs document is not a strict JSON text (A10): ${tree.error.code}: ${tree.error.message}`,
    );
  const root = tree.value;
  if (root.kind !== 'object') return invocation('JPS-GRAPH-INPUTS-SHAPE', 'the inputs document is not an object (A10)');
  // Fast path: every entry checked in document order. Only when one fails are the names walked again in sorted
  // order, so the refusal is the first in A10 order whatever order the document lists them in.
  const fast = entries(root, doc, false);
  return fast.ok ? fast : entries(root, doc, true);
}

/** The entries of the inputs document, each checked whole (A10) in document order or in sorted name order. */
function entries(root: JsonObject, doc: GraphDocument, sorted: boolean): Result<CallerInputs, GraphRefusal> {
  const draft = doc.formatVersion === '0.2.0-draft';
  const nodes = new Map<string, NodeInputs>();
  let caller: CallerInputs['caller'];
  const names: string[] = [];
  root.members.forEach((_, name) => names.push(name));
  if (sorted) names.sort();
  for (const name of names) {
    const isCaller = draft && name === CALLER;
    const node = doc.nodes.get(name);
    if (!isCaller && node === undefined)
      return invocation('JPS-GRAPH-INPUTS-NODE', `inputs name ${JSON.stringify(name)}, which is not a node (A10)`);
    if (node?.kind === 'subgraph')
      return invocation(
        'JPS-GRAPH-INPUTS-SUBGRAPH-NODE',
        `subgraph node ${JSON.stringify(name)} takes its values through edges, not an inputs entry (B4)`,
      );
    const entry = root.members.get(name)!;
    if (entry.kind !== 'object')
      return invocation('JPS-GRAPH-INPUTS-SHAPE', `the inputs entry ${JSON.stringify(name)} is not an object (A10)`);
    const facts = entry.members.get('facts');
    const evidence = entry.members.get('evidence');
    if (entry.members.size !== (facts === undefined ? 0 : 1) + (evidence === undefined ? 0 : 1)) {
      const member = [...entry.members.keys()].find((m) => m !== 'facts' && m !== 'evidence')!;
      return invocation(
        'JPS-GRAPH-INPUTS-MEMBER',
        `the inputs entry ${JSON.stringify(name)} has a member ${JSON.stringify(member)} (A10)`,
      );
    }
    if (evidence !== undefined && evidence.kind !== 'object')
      return invocation('JPS-GRAPH-INPUTS-EVIDENCE', `the evidence of ${JSON.stringify(name)} is not an object (A10)`);
    if (isCaller) caller = { facts, evidence };
    else nodes.set(name, { facts: facts ?? EMPTY_FACTS, evidence });
  }
  return ok({ nodes, caller });
}
