/**
 * Evaluating a graph (A2–A6, A9, B6, B7): load, static validation, the inputs document, the caller-collision
 * checks, then the nodes — hierarchically (B6): the root in its A4 order; at a subgraph node the whole subgraph in
 * its own A4 order, its outputs resolved, then the parent resumes. Every node is evaluated with the existing
 * evaluator (core/evaluate, compiled packs); the first engine error refuses the run with its §8.4 class, phase and
 * node. One request budget covers the whole run (ADR 0313).
 */
import {
  DEFAULT_CARRIER_LIMITS,
  resolvePointer,
  utf8ByteLength,
  type JsonObject,
  type JsonValue,
} from '../carrier/index.js';
import {
  DEFAULT_WORK_BUDGET,
  evaluateCompiled,
  evaluateParsed,
  MAX_WORK_BUDGET,
  type Disposition,
  type EvaluationError,
} from '../evaluate/index.js';
import { GRAPH_EXIT } from './codes.js';
import { CALLER, type GraphDocument, type GraphEdge } from './document.js';
import { collision, inject, stringValue, withEvidence } from './feeds.js';
import type {
  EvidenceFeed,
  FactFeed,
  GraphEvaluation,
  GraphRun,
  HandoffEntry,
  LeafEntry,
  SubgraphEntry,
} from './graph-run.js';
import { EMPTY_FACTS, readGraphInputs, type CallerInputs } from './inputs.js';
import { jsonBytes, jsonText } from './json-text.js';
import { loadGraph } from './load.js';
import { evaluationOrder } from './order.js';
import { PackCache } from './packs.js';
import type { GraphProject } from './project.js';
import { resolveGraph, type Instance } from './references.js';
import { refusal, type GraphRefusal } from './refusal.js';
import { pointerTokens } from './structure.js';

export interface GraphEvaluationInput {
  /** The root graph document's exact bytes. */
  readonly graph: Uint8Array;
  readonly project: GraphProject;
  /** The inputs document (A2); omitted = every node gets `{}` (A10). */
  readonly inputs?: Uint8Array;
  /** Applied identically to every node (A2 "Extension support"). */
  readonly supportedExtensions: ReadonlySet<string>;
  /** RFC 0008 units for the whole run (ADR 0313); default DEFAULT_WORK_BUDGET. */
  readonly workBudget?: number;
  /**
   * When true each leaf keeps its §8.3 diagnostic trace (`LeafEntry.trace`): which rules and exceptions fired, for
   * the console (ADR 0371). It changes no member of the result object and no work charge.
   */
  readonly trace?: boolean;
}

/** Internal control flow only, caught in evaluateGraph: the first refusal met stops the run (A4, B7). */
class Stop extends Error {
  override readonly name = 'Stop';
  constructor(readonly refusal: GraphRefusal) {
    super(refusal.message);
  }
}

const nodeRefusal = (error: EvaluationError, node: string): GraphRefusal =>
  refusal(
    'node',
    error.code,
    error.class === 'unsupported-required-extension' ? GRAPH_EXIT.UNSUPPORTED : GRAPH_EXIT.INVALID,
    error.message,
    {
      class: error.class,
      phase: error.phase,
      node,
    },
  );

export function evaluateGraph(input: GraphEvaluationInput): GraphRun {
  const budget = input.workBudget ?? DEFAULT_WORK_BUDGET;
  if (!Number.isSafeInteger(budget) || budget < 1 || budget > MAX_WORK_BUDGET)
    return refused(
      refusal(
        'invocation',
        'JPS-GRAPH-WORK-BUDGET',
        GRAPH_EXIT.INVOCATION,
        `the work budget must be an integer from 1 to ${MAX_WORK_BUDGET}`,
      ),
    );
  const loaded = loadGraph(input.graph);
  if (!loaded.ok) return refused(refusal('load', loaded.error.code, loaded.error.exit, loaded.error.message));
  const root = loaded.value;
  const resolved = resolveGraph(root, input.project);
  if (!resolved.ok) {
    const first = resolved.error[0]!;
    return refused(
      refusal(
        'structure',
        'JPS-GRAPH-INVALID',
        GRAPH_EXIT.INVALID,
        `${first.code} at ${first.path}: ${first.message}`,
        {
          diagnostic: first.code,
        },
      ),
    );
  }
  const inputs = readGraphInputs(input.inputs, root);
  if (!inputs.ok) return refused(inputs.error);
  const conflict = callerConflicts(root, inputs.value);
  if (conflict !== undefined) return refused(conflict);
  const run = new Run(input, inputs.value, budget);
  try {
    return run.finish(resolved.value, run.instance(resolved.value, rootBinding(root, inputs.value)));
  } catch (e) {
    // The work the nodes used before the refusal (the failing node's included) is recorded by a ledger entry
    // (ADR 0360); the output contract does not print it.
    if (e instanceof Stop) return { status: 'refused', error: e.refusal, workUsed: run.used() };
    throw e;
  }
}

const refused = (error: GraphRefusal): GraphRun => ({ status: 'refused', error });

// ---------------------------------------------------------------------------------------------------------------
// Caller collisions (A7, B2 "Collisions", Docket's decision 5)

/** The fact feeds and evidence feeds into each root pack node, in edge order then `inputs` mapping order. */
function rootFeeds(doc: GraphDocument): { node: string; fact?: string; evidence?: string }[] {
  const feeds: { node: string; fact?: string; evidence?: string }[] = [];
  for (const e of doc.edges) {
    if (doc.nodes.get(e.to)?.kind !== 'pack') continue;
    feeds.push({
      node: e.to,
      ...(e.fact !== undefined ? { fact: e.fact } : {}),
      ...(e.evidence !== undefined ? { evidence: e.evidence } : {}),
    });
  }
  for (const m of doc.inputFacts)
    if (doc.nodes.get(m.node)?.kind === 'pack') feeds.push({ node: m.node, fact: m.pointer });
  for (const m of doc.inputEvidence)
    if (doc.nodes.get(m.node)?.kind === 'pack') feeds.push({ node: m.node, evidence: m.requirementId });
  return feeds;
}

/**
 * A7: every fact feed against the caller's facts for its node, before any node runs, whatever the upstream later
 * produces; for 0.2.0-draft documents the evidence feeds too (B2, Docket's decision 5). Format "1" checks evidence
 * when the node runs (Run.evidenceConflict).
 */
function callerConflicts(doc: GraphDocument, inputs: CallerInputs): GraphRefusal | undefined {
  const draft = doc.formatVersion === '0.2.0-draft';
  for (const f of rootFeeds(doc)) {
    const own = inputs.nodes.get(f.node);
    if (own === undefined) continue;
    if (f.fact !== undefined) {
      const why = collision(own.facts, pointerTokens(f.fact));
      if (why !== undefined)
        return refusal(
          'invocation',
          'JPS-GRAPH-FACT-CONFLICT',
          GRAPH_EXIT.INVOCATION,
          `a feed of ${JSON.stringify(f.node)}'s fact ${JSON.stringify(f.fact)} collides with the caller's facts: ${why} (A7)`,
        );
    }
    if (draft && f.evidence !== undefined && own.evidence?.members.has(f.evidence) === true)
      return evidenceConflict(f.node, f.evidence);
  }
  return undefined;
}

const evidenceConflict = (node: string, requirement: string): GraphRefusal =>
  refusal(
    'invocation',
    'JPS-GRAPH-EVIDENCE-CONFLICT',
    GRAPH_EXIT.INVOCATION,
    `a feed of ${JSON.stringify(node)}'s evidence ${requirement} collides with the caller's evidence document (A7)`,
  );

// ---------------------------------------------------------------------------------------------------------------
// Bindings: the values an instance receives through its interface (B2, B4)

interface Binding {
  /** Root only: the caller's per-node entries. */
  readonly nodes: CallerInputs['nodes'];
  /** inputs.facts key → the bound value, or undefined when nothing was bound (the pointer stays absent, B2). */
  readonly facts: ReadonlyMap<string, JsonValue | undefined>;
  readonly evidence: ReadonlyMap<string, JsonValue | undefined>;
  /** Root of a 0.2.0-draft run: the caller document (B4). */
  readonly caller: CallerInputs['caller'];
}

/** Docket's decision 2: a document run as the root binds its own `inputs` from the caller document. */
function rootBinding(doc: GraphDocument, inputs: CallerInputs): Binding {
  const facts = new Map<string, JsonValue | undefined>();
  const evidence = new Map<string, JsonValue | undefined>();
  const caller = inputs.caller;
  for (const m of doc.inputFacts) facts.set(m.key, callerFact(caller, m.key));
  for (const m of doc.inputEvidence) evidence.set(m.key, caller?.evidence?.members.get(m.key));
  return { nodes: inputs.nodes, facts, evidence, caller };
}

function callerFact(caller: CallerInputs['caller'], pointer: string): JsonValue | undefined {
  return caller?.facts === undefined ? undefined : resolvePointer(caller.facts, pointerTokens(pointer));
}

// ---------------------------------------------------------------------------------------------------------------

/** What one node produced, as its downstream edges read it. */
type Produced =
  | { readonly kind: 'pack'; readonly leaf: LeafEntry }
  | { readonly kind: 'subgraph'; readonly outputs: ReadonlyMap<string, LeafEntry>; readonly result: LeafEntry };

interface InstanceResult {
  readonly outputs: ReadonlyMap<string, LeafEntry>;
  /** The leaf of the document's `result`. */
  readonly result: LeafEntry;
}

/** The upstream value an edge carries: the disposition it reads and, for a subgraph, the output it names. */
function upstream(produced: ReadonlyMap<string, Produced>, e: GraphEdge): Disposition {
  const p = produced.get(e.from)!;
  return p.kind === 'pack' ? p.leaf.disposition : p.outputs.get(e.output!)!.disposition;
}

const outcomeOf = (d: Disposition): string | undefined => (d.kind === 'outcome' ? d.outcomeId : undefined);

class Run {
  private readonly packs: PackCache;
  private readonly leaves: LeafEntry[] = [];
  private readonly subgraphs: SubgraphEntry[] = [];
  private remaining: number;

  /** RFC 0008 units the nodes evaluated so far used (ADR 0313). */
  used(): number {
    return this.budget - this.remaining;
  }

  constructor(
    private readonly input: GraphEvaluationInput,
    private readonly inputs: CallerInputs,
    private readonly budget: number,
  ) {
    this.packs = new PackCache(input.project);
    this.remaining = budget;
  }

  instance(inst: Instance, binding: Binding): InstanceResult {
    const { doc } = inst;
    const produced = new Map<string, Produced>();
    for (const id of evaluationOrderOf(inst)) {
      const node = doc.nodes.get(id)!;
      if (node.kind === 'pack')
        produced.set(id, { kind: 'pack', leaf: this.leaf(inst, id, node.pack, binding, produced) });
      else produced.set(id, this.subgraph(inst, id, binding, produced));
    }
    const outputs = new Map<string, LeafEntry>();
    for (const o of doc.outputs.values()) {
      const p = produced.get(o.node)!;
      outputs.set(o.name, p.kind === 'pack' ? p.leaf : p.outputs.get(o.output!)!);
    }
    const r = produced.get(doc.result)!;
    return { outputs, result: r.kind === 'pack' ? r.leaf : r.result };
  }

  /** A pack node: assemble its facts and evidence from its feeds (A2, A3, B2), then the evaluator. */
  private leaf(
    inst: Instance,
    id: string,
    pack: string,
    binding: Binding,
    produced: ReadonlyMap<string, Produced>,
  ): LeafEntry {
    const { doc } = inst;
    const path = inst.path === '' ? id : `${inst.path}/${id}`;
    const own = inst.path === '' ? binding.nodes.get(id) : undefined;
    let facts: JsonValue = own?.facts ?? EMPTY_FACTS;
    const factFeeds: FactFeed[] = [];
    const evidenceFeeds: EvidenceFeed[] = [];
    const evidence = new Map<string, JsonValue>();
    let evidenceFed = false;
    let grown = false;
    const feedFact = (from: string, pointer: string, value: JsonValue | undefined, output?: string): void => {
      if (value !== undefined) {
        const tokens = pointerTokens(pointer);
        facts = inject(facts, tokens, value);
        grown ||= grewPast(facts, tokens);
      }
      factFeeds.push({
        from,
        ...(output !== undefined ? { output } : {}),
        pointer,
        injected: value !== undefined,
        ...(value !== undefined ? { value } : {}),
      });
    };
    const feedEvidence = (from: string, requirement: string, state: JsonValue | undefined, output?: string): void => {
      evidenceFed = true;
      // Format "1" decides evidence collisions when the target runs (A7); 0.2.0-draft did before evaluation.
      if (own?.evidence?.members.has(requirement) === true) throw new Stop(evidenceConflict(id, requirement));
      if (state !== undefined) evidence.set(requirement, state);
      evidenceFeeds.push({
        from,
        ...(output !== undefined ? { output } : {}),
        requirement,
        ...(state !== undefined ? { state } : {}),
      });
    };
    for (const e of doc.edges) {
      if (e.to !== id) continue;
      if (doc.formatVersion !== '1' && e.from === CALLER) {
        if (e.fact !== undefined) feedFact(CALLER, e.fact, callerFact(binding.caller, e.callerFact!));
        if (e.evidence !== undefined)
          feedEvidence(CALLER, e.evidence, binding.caller?.evidence?.members.get(e.callerEvidence!));
        continue;
      }
      const d = upstream(produced, e);
      const outcome = outcomeOf(d);
      if (e.fact !== undefined)
        feedFact(e.from, e.fact, outcome === undefined ? undefined : stringValue(outcome), e.output);
      if (e.evidence !== undefined)
        feedEvidence(e.from, e.evidence, stringValue(outcome !== undefined ? 'present' : e.onUnresolved), e.output);
    }
    for (const m of doc.inputFacts) if (m.node === id) feedFact(`input:${m.key}`, m.pointer, binding.facts.get(m.key));
    for (const m of doc.inputEvidence)
      if (m.node === id) feedEvidence(`input:${m.key}`, m.requirementId, binding.evidence.get(m.key));
    // A2: the evidence document counts as supplied whenever any feed exists.
    const evidenceDoc: JsonObject | undefined = evidenceFed ? withEvidence(own?.evidence, evidence) : own?.evidence;
    const evidenceGrown = evidenceDoc !== undefined && evidenceDoc.members.size > DEFAULT_CARRIER_LIMITS.collectionSize;
    return this.evaluate(path, id, pack, facts, evidenceDoc, factFeeds, evidenceFeeds, grown, evidenceGrown);
  }

  private evaluate(
    path: string,
    id: string,
    pack: string,
    facts: JsonValue,
    evidence: JsonObject | undefined,
    factFeeds: FactFeed[],
    evidenceFeeds: EvidenceFeed[],
    factsGrown: boolean,
    evidenceGrown: boolean,
  ): LeafEntry {
    const state = this.packs.get(pack);
    if (state.kind === 'unreadable')
      throw new Stop(
        refusal(
          'node-read',
          'JPS-GRAPH-NODE-PACK-READ',
          GRAPH_EXIT.IO,
          `pack ${JSON.stringify(pack)} cannot be read: ${state.message} (A3)`,
          {
            node: path,
          },
        ),
      );
    if (state.kind === 'error') throw new Stop(nodeRefusal(state.error, path));
    if (this.remaining < 1)
      // ADR 0313: the run's budget is spent before this node's first unit, so the node is where it runs out.
      throw new Stop(
        nodeRefusal(
          {
            class: 'resource-exhaustion',
            phase: 'evaluation',
            code: 'work-budget-exceeded',
            message: `the graph's work budget of ${this.budget} units is spent before this node (§10, RFC 0008 Limit accounting)`,
          },
          path,
        ),
      );
    const settings = {
      supportedExtensions: this.input.supportedExtensions,
      workBudget: this.remaining,
      ...(this.input.trace === true ? { trace: true } : {}),
    };
    // ADR 0315: the assembled trees go to the evaluator as read documents whenever their text is certainly within
    // the carrier's limits; otherwise as their text, which the evaluator's preflight refuses exactly as it would.
    const r =
      withinLimits(facts, factsGrown) && (evidence === undefined || withinLimits(evidence, evidenceGrown))
        ? evaluateParsed(state.compiled, { facts, ...(evidence !== undefined ? { evidence } : {}), ...settings })
        : evaluateCompiled(state.compiled, {
            facts: jsonBytes(facts),
            ...(evidence !== undefined ? { evidence: jsonBytes(evidence) } : {}),
            ...settings,
          });
    this.remaining -= r.work;
    if (r.kind === 'error') throw new Stop(nodeRefusal(r.error, path));
    const { meta } = state;
    const requested = r.disposition.handoff.state === 'requested';
    const leaf: LeafEntry = {
      node: id,
      instancePath: path,
      pack,
      packId: meta.packId,
      packVersion: meta.packVersion,
      specVersion: meta.specVersion,
      factFeeds,
      evidenceFeeds,
      disposition: r.disposition,
      dispositionBytes: r.bytes,
      ...(requested && meta.target !== undefined ? { handoffTarget: meta.target } : {}),
      work: r.work,
      ...(r.trace !== undefined ? { trace: r.trace } : {}),
    };
    this.leaves.push(leaf);
    return leaf;
  }

  /** A subgraph node: bind its interface from its feeds (B2), run it whole (B6), then read its outputs. */
  private subgraph(inst: Instance, id: string, binding: Binding, produced: ReadonlyMap<string, Produced>): Produced {
    const { doc } = inst;
    const child = inst.children.get(id)!;
    const facts = new Map<string, JsonValue | undefined>();
    const evidence = new Map<string, JsonValue | undefined>();
    const factFeeds: FactFeed[] = [];
    const evidenceFeeds: EvidenceFeed[] = [];
    const bindFact = (from: string, key: string, value: JsonValue | undefined, output?: string): void => {
      facts.set(key, value);
      factFeeds.push({
        from,
        ...(output !== undefined ? { output } : {}),
        pointer: key,
        injected: value !== undefined,
        ...(value !== undefined ? { value } : {}),
      });
    };
    const bindEvidence = (from: string, key: string, state: JsonValue | undefined, output?: string): void => {
      evidence.set(key, state);
      evidenceFeeds.push({
        from,
        ...(output !== undefined ? { output } : {}),
        requirement: key,
        ...(state !== undefined ? { state } : {}),
      });
    };
    for (const e of doc.edges) {
      if (e.to !== id) continue;
      if (e.from === CALLER) {
        if (e.fact !== undefined) bindFact(CALLER, e.fact, callerFact(binding.caller, e.callerFact!));
        if (e.evidence !== undefined)
          bindEvidence(CALLER, e.evidence, binding.caller?.evidence?.members.get(e.callerEvidence!));
        continue;
      }
      const outcome = outcomeOf(upstream(produced, e));
      if (e.fact !== undefined)
        bindFact(e.from, e.fact, outcome === undefined ? undefined : stringValue(outcome), e.output);
      if (e.evidence !== undefined)
        bindEvidence(e.from, e.evidence, stringValue(outcome !== undefined ? 'present' : e.onUnresolved), e.output);
    }
    for (const m of doc.inputFacts) if (m.node === id) bindFact(`input:${m.key}`, m.pointer, binding.facts.get(m.key));
    for (const m of doc.inputEvidence)
      if (m.node === id) bindEvidence(`input:${m.key}`, m.requirementId, binding.evidence.get(m.key));
    const at = this.subgraphs.length;
    this.subgraphs.push(undefined as unknown as SubgraphEntry); // parents listed before their children
    const result = this.instance(child, { nodes: new Map(), facts, evidence, caller: undefined });
    const outputs: Record<string, Disposition> = {};
    for (const [name, leaf] of result.outputs) outputs[name] = leaf.disposition;
    this.subgraphs[at] = {
      instancePath: child.path,
      subgraph: child.name!,
      graphId: child.doc.id,
      graphVersion: child.doc.version,
      digest: child.doc.digest,
      factFeeds,
      evidenceFeeds,
      outputs,
    };
    return { kind: 'subgraph', outputs: result.outputs, result: result.result };
  }

  finish(root: Instance, result: InstanceResult): GraphEvaluation {
    const { doc } = root;
    const draft = doc.formatVersion === '0.2.0-draft';
    const handoffs: HandoffEntry[] = [];
    for (const leaf of this.leaves) {
      const h = leaf.disposition.handoff;
      if (h.state !== 'requested') continue;
      handoffs.push({
        ...(draft ? { originatingNode: leaf.instancePath } : { node: leaf.node }),
        triggeredBy: h.triggeredBy ?? [],
        ...(leaf.handoffTarget !== undefined ? { target: leaf.handoffTarget } : {}),
      });
    }
    const head = result.result;
    return {
      status: 'evaluated',
      experimental: true,
      formatVersion: doc.formatVersion,
      graphId: doc.id,
      graphVersion: doc.version,
      graphDigest: doc.digest,
      resultNode: doc.result,
      ...(draft ? { headline: { node: head.instancePath, disposition: head.disposition } } : {}),
      disposition: head.disposition,
      ...(head.handoffTarget !== undefined ? { handoffTarget: head.handoffTarget } : {}),
      handoffs,
      nodes: this.leaves,
      ...(draft ? { subgraphs: this.subgraphs } : {}),
      work: { budget: this.budget, used: this.budget - this.remaining },
    };
  }
}

/**
 * ADR 0315: true when `v`'s minimal JSON text is within every default carrier limit a node's documents can exceed.
 * The text is at most 6·V + 2 bytes (a name or string escapes each byte to at most 6), so small documents need no
 * measuring; larger ones are measured exactly. Only injected objects can grow past the collection limit (the caller's
 * were read under it); depth cannot pass it (fed pointers have at most 64 tokens, A7); strings and numbers are the
 * caller's own or outcome ids.
 */
function withinLimits(v: JsonValue, grown: boolean): boolean {
  const L = DEFAULT_CARRIER_LIMITS;
  if (grown) return false;
  if (6 * v.v + 2 <= L.documentBytes) return true;
  return utf8ByteLength(jsonText(v)) <= L.documentBytes;
}

/** Whether an object on the fed path now has more members than the carrier admits (only feeds add members). */
function grewPast(root: JsonValue, tokens: readonly string[]): boolean {
  let node: JsonValue | undefined = root;
  for (const t of tokens) {
    if (node?.kind !== 'object') return false;
    if (node.members.size > DEFAULT_CARRIER_LIMITS.collectionSize) return true;
    node = node.members.get(t);
  }
  return false;
}

/** A4 order of one document, computed once per document and shared by its instances. */
const orders = new WeakMap<GraphDocument, readonly string[]>();
function evaluationOrderOf(inst: Instance): readonly string[] {
  let o = orders.get(inst.doc);
  if (o === undefined) orders.set(inst.doc, (o = evaluationOrder(inst.doc)));
  return o;
}
