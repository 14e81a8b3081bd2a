/**
 * Loading one graph document (A1 "Load order", B1): byte limit, empty, strict carrier, object root, the
 * formatVersion gate before the schema, the schema, then the digest of the exact bytes. Each refusal has its own
 * code and exit status and none carries a §8.4 class.
 */
import { readJson, toPlain, type JsonObject } from '../carrier/index.js';
import { err, ok, type Result } from '../result.js';
import { GRAPH_LIMITS, type LoadCode } from './codes.js';
import { EXIT, type GraphExit } from '../exit-codes.js';
import { bytesDigest } from './digest.js';
import type {
  EvidenceMapping,
  FactMapping,
  FormatVersion,
  GraphDocument,
  GraphEdge,
  GraphNode,
  OnUnresolved,
  OutputDecl,
} from './document.js';
import { graphSchemaValidator } from './schemas.js';

export interface LoadRefusal {
  readonly code: LoadCode;
  readonly exit: GraphExit;
  readonly message: string;
}

const refuse = (code: LoadCode, exit: GraphExit, message: string): Result<never, LoadRefusal> =>
  err({ code, exit, message });

const SUPPORTED: ReadonlySet<string> = new Set(['1', '0.2.0-draft']);

/**
 * Loads already answered, keyed by the SHA-256 of the exact bytes: the answer is a pure function of the bytes, so a
 * hit is indistinguishable from loading again. Bounded; the oldest entry goes first.
 */
const LOADED_MAX = 64;
const loaded = new Map<string, Result<GraphDocument, LoadRefusal>>();

export function loadGraph(bytes: Uint8Array): Result<GraphDocument, LoadRefusal> {
  if (bytes.length > GRAPH_LIMITS.graphBytes) return load(bytes, '');
  const digest = bytesDigest(bytes);
  let r = loaded.get(digest);
  if (r === undefined) {
    r = load(bytes, digest);
    if (loaded.size >= LOADED_MAX) loaded.delete(loaded.keys().next().value!);
    loaded.set(digest, r);
  }
  return r;
}

function load(bytes: Uint8Array, digest: string): Result<GraphDocument, LoadRefusal> {
  if (bytes.length > GRAPH_LIMITS.graphBytes)
    return refuse(
      'JPS-RESOURCE-GRAPH-BYTE-LIMIT',
      EXIT.GRAPH_IO,
      `the graph document is ${bytes.length} bytes; the limit is ${GRAPH_LIMITS.graphBytes} (A1)`,
    );
  if (bytes.length === 0) return refuse('JPS-GRAPH-JSON', EXIT.GRAPH_INVOCATION, 'the graph document is empty (A1)');
  const tree = readJson(bytes);
  if (!tree.ok)
    return refuse(
      'JPS-GRAPH-JSON',
      EXIT.GRAPH_INVOCATION,
      `the graph document is not a strict JSON text (A1): ${tree.error.code}: ${tree.error.message}`,
    );
  const root = tree.value;
  if (root.kind !== 'object')
    return refuse('JPS-GRAPH-SCHEMA', EXIT.GRAPH_INVALID, 'the graph document is not a JSON object (A1)');
  const gate = formatGate(root);
  if (!gate.ok) return gate;
  const plain = toPlain(root);
  const validate = graphSchemaValidator(gate.value);
  if (!validate(plain)) {
    const first = validate.errors?.[0];
    const where = first === undefined ? '' : `: ${first.instancePath || '/'} ${first.message ?? ''}`;
    return refuse('JPS-GRAPH-SCHEMA', EXIT.GRAPH_INVALID, `the graph document fails its schema (A1)${where}`);
  }
  return ok(typed(plain as Plain, gate.value, digest));
}

/** A1 step 5: missing or not a string is invalid (exit 1); an unknown value is unsupported (exit 2). */
function formatGate(root: JsonObject): Result<FormatVersion, LoadRefusal> {
  const v = root.members.get('formatVersion');
  if (v === undefined || v.kind !== 'string')
    return refuse('JPS-GRAPH-VERSION', EXIT.GRAPH_INVALID, 'formatVersion is missing or not a string (A1)');
  if (!SUPPORTED.has(v.value))
    return refuse(
      'JPS-GRAPH-VERSION',
      EXIT.GRAPH_UNSUPPORTED,
      `formatVersion ${JSON.stringify(v.value)} is not supported; "1" and "0.2.0-draft" are (A1, B1)`,
    );
  return ok(v.value as FormatVersion);
}

// The schema has been applied: these shapes hold.
interface PlainEdge {
  from: string;
  to: string;
  output?: string;
  fact?: string;
  input?: string;
  evidence?: string | { id: string; onUnresolved?: OnUnresolved };
  requirementId?: string;
  onUnresolved?: OnUnresolved;
}
interface Plain {
  id: string;
  version: string;
  result: string;
  nodes: Record<string, { pack?: string; subgraph?: string; digest?: string; version?: string }>;
  edges: PlainEdge[];
  inputs?: {
    facts?: Record<string, { node: string; pointer: string }>;
    evidence?: Record<string, { node: string; requirementId: string }>;
  };
  outputs?: Record<string, { node: string; output?: string }>;
}

const sortedKeys = (o: object | undefined): string[] => (o === undefined ? [] : Object.keys(o).sort());

function typed(p: Plain, formatVersion: FormatVersion, digest: string): GraphDocument {
  const nodes = new Map<string, GraphNode>();
  for (const [id, n] of Object.entries(p.nodes)) {
    nodes.set(
      id,
      n.subgraph !== undefined
        ? { kind: 'subgraph', id, subgraph: n.subgraph, digest: n.digest as string, version: n.version }
        : { kind: 'pack', id, pack: n.pack as string },
    );
  }
  const inputFacts: FactMapping[] = sortedKeys(p.inputs?.facts).map((key) => ({ key, ...p.inputs!.facts![key]! }));
  const inputEvidence: EvidenceMapping[] = sortedKeys(p.inputs?.evidence).map((key) => ({
    key,
    ...p.inputs!.evidence![key]!,
  }));
  const outputs = new Map<string, OutputDecl>();
  for (const name of sortedKeys(p.outputs)) {
    const o = p.outputs![name]!;
    outputs.set(name, { name, node: o.node, output: o.output });
  }
  return {
    formatVersion,
    id: p.id,
    version: p.version,
    nodes,
    edges: p.edges.map(edge),
    result: p.result,
    inputFacts,
    inputEvidence,
    outputs,
    digest,
  };
}

function edge(e: PlainEdge, index: number): GraphEdge {
  const base = { index, from: e.from, to: e.to, output: e.output };
  if (e.from === 'caller' && typeof e.evidence !== 'object' && (e.input !== undefined || e.requirementId !== undefined))
    return {
      ...base,
      fact: e.input,
      evidence: e.requirementId,
      onUnresolved: 'unknown',
      callerFact: e.input === undefined ? undefined : e.fact,
      callerEvidence: typeof e.evidence === 'string' ? e.evidence : undefined,
      factMember: 'input',
    };
  const evidence = typeof e.evidence === 'object' ? e.evidence : undefined;
  return {
    ...base,
    fact: e.fact ?? e.input,
    evidence: evidence?.id ?? e.requirementId,
    onUnresolved: evidence?.onUnresolved ?? e.onUnresolved ?? 'unknown',
    callerFact: undefined,
    callerEvidence: undefined,
    factMember: e.fact !== undefined ? 'fact' : 'input',
  };
}
