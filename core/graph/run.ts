/**
 * Evaluating a graph (A2–A6, A9, B6, B7): load, static validation (both once per compiled graph, ADR 0380), the
 * inputs document, the caller-collision checks, then the nodes — hierarchically (B6): the root in its A4 order; at a subgraph node the whole subgraph in
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
import { EXIT } from '../exit-codes.js';
import { compiledGraphFor } from './compiled-graph-memo.js';
import type { CompiledGraph, CompiledInstance } from './compiled-graph.js';
import { CALLER, type GraphEdge } from './document.js';
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
import { EMPTY_FACTS, readGraphInputs, type CallerInputs, type NodeInputs } from './inputs.js';
import type { FeedStep } from './plan.js';
import { jsonBytes, jsonText } from './json-text.js';
import type { GraphProject } from './project.js';
import { refusal, type GraphRefusal } from './refusal.js';

/** What one run of a compiled graph takes besides the graph (ADR 0380). */
export interface GraphRunInput {
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

export interface GraphEvaluationInput extends GraphRunInput {
  /** The root graph document's exact bytes. */
  readonly graph: Uint8Array;
  readonly project: GraphProject;
}

/** Internal control flow only, caught in evaluateCompiledGraph: the first refusal met stops the run (A4, B7). */
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
    error.class === 'unsupported-required-extension' ? EXIT.GRAPH_UNSUPPORTED : EXIT.GRAPH_INVALID,
    error.message,
    { class: error.class, phase: error.phase, node },
  );

/** ADR 0313: the run's budget is checked before anything else. */
function budgetRefusal(budget: number): GraphRefusal | undefined {
  return !Number.isSafeInteger(budget) || budget < 1 || budget > MAX_WORK_BUDGET
    ? refusal(
        'invocation',
        'JPS-GRAPH-WORK-BUDGET',
        EXIT.GRAPH_INVOCATION,
        `the work budget must be an integer from 1 to ${MAX_WORK_BUDGET}`,
      )
    : undefined;
}

/**
 * One run of a graph over a project snapshot: the compiled graph for its bytes (memoized by digests, ADR 0380),
 * then evaluateCompiledGraph. The answer is byte for byte the one compiling afresh would give.
 */
export function evaluateGraph(input: GraphEvaluationInput): GraphRun {
  const bad = budgetRefusal(input.workBudget ?? DEFAULT_WORK_BUDGET);
  if (bad !== undefined) return refused(bad);
  return evaluateCompiledGraph(compiledGraphFor(input), input);
}

/**
 * One run of a compiled graph (ADR 0380): the budget (ADR 0313), the compiled graph's own load or validation
 * refusal, the inputs document (A10), the caller-collision checks (A7), then the nodes.
 */
export function evaluateCompiledGraph(compiled: CompiledGraph, input: GraphRunInput): GraphRun {
  const budget = input.workBudget ?? DEFAULT_WORK_BUDGET;
  const bad = budgetRefusal(budget);
  if (bad !== undefined) return refused(bad);
  if (compiled.refusal !== undefined) return refused(compiled.refusal);
  const root = compiled.root!;
  const inputs = readGraphInputs(input.inputs, root.doc);
  if (!inputs.ok) return refused(inputs.error);
  const conflict = callerConflicts(root, inputs.value);
  if (conflict !== undefined) return refused(conflict);
  const run = new Run(compiled, input.supportedExtensions, budget, input.trace === true);
  try {
    return run.finish(root, run.instance(root, rootBinding(root, inputs.value)));
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

/**
 * A7: every fact feed against the caller's facts for its node, before any node runs, whatever the upstream later
 * produces; for 0.2.0-draft documents the evidence feeds too (B2, Docket's decision 5). Format "1" checks evidence
 * when the node runs (Run.leaf).
 */
function callerConflicts(root: CompiledInstance, inputs: CallerInputs): GraphRefusal | undefined {
  const draft = root.doc.formatVersion === '0.2.0-draft';
  for (const f of root.plan.rootFeeds) {
    const own = inputs.nodes.get(f.node);
    if (own === undefined) continue;
    if (f.factTokens !== undefined) {
      const why = collision(own.facts, f.factTokens);
      if (why !== undefined)
        return refusal(
          'invocation',
          'JPS-GRAPH-FACT-CONFLICT',
          EXIT.GRAPH_INVOCATION,
          `a feed of ${JSON.stringify(f.node)}'s fact ${JSON.stringify(f.fact)} collides with the caller's facts: ${why} (A7)`,
          { node: f.node },
        );
    }
    if (draft && f.evidence !== undefined && own.evidence?.members.has(f.evidence) === true)
      return evidenceConflict(f.node, f.evidence);
  }
  return undefined;
}

/** `node` is the node whose inputs collide, by id or, inside a subgraph, instance path (docs/graphs.md). */
const evidenceConflict = (node: string, requirement: string): GraphRefusal =>
  refusal(
    'invocation',
    'JPS-GRAPH-EVIDENCE-CONFLICT',
    EXIT.GRAPH_INVOCATION,
    `a feed of ${JSON.stringify(node)}'s evidence ${requirement} collides with the caller's evidence document (A7)`,
    { node },
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
function rootBinding(root: CompiledInstance, inputs: CallerInputs): Binding {
  const facts = new Map<string, JsonValue | undefined>();
  const evidence = new Map<string, JsonValue | undefined>();
  const caller = inputs.caller;
  for (const m of root.doc.inputFacts) facts.set(m.key, callerFact(caller, root.plan.inputFactTokens.get(m.key)!));
  for (const m of root.doc.inputEvidence) evidence.set(m.key, caller?.evidence?.members.get(m.key));
  return { nodes: inputs.nodes, facts, evidence, caller };
}

/** The caller document's value at a decoded pointer, or undefined when it has none (B2: the key stays unbound). */
function callerFact(caller: CallerInputs['caller'], tokens: readonly string[]): JsonValue | undefined {
  return caller?.facts === undefined ? undefined : resolvePointer(caller.facts, tokens);
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

/**
 * A fact feed record `{from, output?, pointer, injected, value?}` (ADR 0315), one literal per shape rather than
 * spreads per feed; the member order is the same in every shape.
 */
function factFeed(from: string, pointer: string, value: JsonValue | undefined, output: string | undefined): FactFeed {
  if (value === undefined)
    return output === undefined ? { from, pointer, injected: false } : { from, output, pointer, injected: false };
  return output === undefined
    ? { from, pointer, injected: true, value }
    : { from, output, pointer, injected: true, value };
}

/** An evidence feed record `{from, output?, requirement, state?}` (ADR 0315), as factFeed. */
function evidenceFeed(
  from: string,
  requirement: string,
  state: JsonValue | undefined,
  output: string | undefined,
): EvidenceFeed {
  if (state === undefined) return output === undefined ? { from, requirement } : { from, output, requirement };
  return output === undefined ? { from, requirement, state } : { from, output, requirement, state };
}

const outcomeOf = (d: Disposition): string | undefined => (d.kind === 'outcome' ? d.outcomeId : undefined);

/** Where a node's feeds go: a pack node's documents (NodeAssembly) or a subgraph node's interface (InterfaceBinding). */
interface FeedSink {
  feedFact(from: string, key: string, tokens: readonly string[], value: JsonValue | undefined, output?: string): void;
  feedEvidence(from: string, key: string, state: JsonValue | undefined, output?: string): void;
}

/**
 * A node's feeds in the plan's order (edges by position, then `inputs` mappings; A2, B2): a caller edge reads the
 * caller document (B4), a node edge the upstream outcome (A3: the outcome id as a fact; "present" as evidence, or
 * its `onUnresolved` when unresolved), a mapping the value bound to the instance's interface key.
 */
function applyFeeds(
  steps: readonly FeedStep[],
  binding: Binding,
  produced: ReadonlyMap<string, Produced>,
  sink: FeedSink,
): void {
  for (const step of steps) {
    switch (step.kind) {
      case 'caller': {
        const e = step.edge;
        if (e.fact !== undefined)
          sink.feedFact(CALLER, e.fact, step.factTokens, callerFact(binding.caller, step.callerFactTokens));
        if (e.evidence !== undefined)
          sink.feedEvidence(CALLER, e.evidence, binding.caller?.evidence?.members.get(e.callerEvidence!));
        break;
      }
      case 'node': {
        const e = step.edge;
        const outcome = outcomeOf(upstream(produced, e));
        if (e.fact !== undefined)
          sink.feedFact(
            e.from,
            e.fact,
            step.factTokens,
            outcome === undefined ? undefined : stringValue(outcome),
            e.output,
          );
        if (e.evidence !== undefined)
          sink.feedEvidence(
            e.from,
            e.evidence,
            stringValue(outcome !== undefined ? 'present' : e.onUnresolved),
            e.output,
          );
        break;
      }
      case 'input-fact':
        sink.feedFact(step.from, step.mapping.pointer, step.factTokens, binding.facts.get(step.mapping.key));
        break;
      case 'input-evidence':
        sink.feedEvidence(step.from, step.mapping.requirementId, binding.evidence.get(step.mapping.key));
        break;
    }
  }
}

/** A pack node's facts and evidence, assembled from the caller's own entry and its feeds (A2, A7, ADR 0315). */
class NodeAssembly implements FeedSink {
  facts: JsonValue;
  /** Whether an object on a fed path now has more members than the carrier admits. */
  grown = false;
  readonly factFeeds: FactFeed[] = [];
  readonly evidenceFeeds: EvidenceFeed[] = [];
  private fedEvidence: Map<string, JsonValue> | undefined;

  constructor(
    /** The node's instance path (its id at the root): what a collision names. */
    private readonly id: string,
    private readonly own: NodeInputs | undefined,
  ) {
    this.facts = own?.facts ?? EMPTY_FACTS;
  }

  feedFact(
    from: string,
    pointer: string,
    tokens: readonly string[],
    value: JsonValue | undefined,
    output?: string,
  ): void {
    if (value !== undefined) {
      this.facts = inject(this.facts, tokens, value);
      this.grown ||= grewPast(this.facts, tokens);
    }
    this.factFeeds.push(factFeed(from, pointer, value, output));
  }

  feedEvidence(from: string, requirement: string, state: JsonValue | undefined, output?: string): void {
    // Format "1" decides evidence collisions when the target runs (A7); 0.2.0-draft did before evaluation.
    if (this.own?.evidence?.members.has(requirement) === true) throw new Stop(evidenceConflict(this.id, requirement));
    this.fedEvidence ??= new Map();
    if (state !== undefined) this.fedEvidence.set(requirement, state);
    this.evidenceFeeds.push(evidenceFeed(from, requirement, state, output));
  }

  /** A2: the evidence document counts as supplied whenever any evidence feed exists. */
  evidenceDocument(): JsonObject | undefined {
    return this.fedEvidence === undefined ? this.own?.evidence : withEvidence(this.own?.evidence, this.fedEvidence);
  }
}

/** The values a subgraph instance receives through its interface keys (B2); undefined = nothing bound. */
class InterfaceBinding implements FeedSink {
  readonly facts = new Map<string, JsonValue | undefined>();
  readonly evidence = new Map<string, JsonValue | undefined>();
  readonly factFeeds: FactFeed[] = [];
  readonly evidenceFeeds: EvidenceFeed[] = [];

  feedFact(from: string, key: string, _tokens: readonly string[], value: JsonValue | undefined, output?: string): void {
    this.facts.set(key, value);
    this.factFeeds.push(factFeed(from, key, value, output));
  }

  feedEvidence(from: string, key: string, state: JsonValue | undefined, output?: string): void {
    this.evidence.set(key, state);
    this.evidenceFeeds.push(evidenceFeed(from, key, state, output));
  }
}

class Run {
  private readonly leaves: LeafEntry[] = [];
  private readonly subgraphs: SubgraphEntry[] = [];
  private remaining: number;

  /** RFC 0008 units the nodes evaluated so far used (ADR 0313). */
  used(): number {
    return this.budget - this.remaining;
  }

  constructor(
    private readonly compiled: CompiledGraph,
    private readonly supportedExtensions: ReadonlySet<string>,
    private readonly budget: number,
    /** Keep each leaf's §8.3 trace (ADR 0371); changes no member of the result object. */
    private readonly trace: boolean,
  ) {
    this.remaining = budget;
  }

  instance(inst: CompiledInstance, binding: Binding): InstanceResult {
    const { doc } = inst;
    const produced = new Map<string, Produced>();
    for (const id of inst.plan.order) {
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
    inst: CompiledInstance,
    id: string,
    pack: string,
    binding: Binding,
    produced: ReadonlyMap<string, Produced>,
  ): LeafEntry {
    const path = inst.path === '' ? id : `${inst.path}/${id}`;
    const own = inst.path === '' ? binding.nodes.get(id) : undefined;
    const steps = inst.plan.feeds.get(id)!;
    // A node without feeds takes the caller's trees as they are: nothing to assemble (ADR 0380).
    if (steps.length === 0)
      return this.evaluate(path, id, pack, own?.facts ?? EMPTY_FACTS, own?.evidence, [], [], false);
    const a = new NodeAssembly(path, own);
    applyFeeds(steps, binding, produced, a);
    return this.evaluate(path, id, pack, a.facts, a.evidenceDocument(), a.factFeeds, a.evidenceFeeds, a.grown);
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
  ): LeafEntry {
    // Only feeds add members to an evidence object; the caller's own was read under the carrier's limit.
    const evidenceGrown = evidence !== undefined && evidence.members.size > DEFAULT_CARRIER_LIMITS.collectionSize;
    const state = this.compiled.packs.get(pack)!;
    if (state.kind === 'unreadable')
      throw new Stop(
        refusal(
          'node-read',
          'JPS-GRAPH-NODE-PACK-READ',
          EXIT.GRAPH_IO,
          `pack ${JSON.stringify(pack)} cannot be read: ${state.message} (A3)`,
          { node: path },
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
    const { supportedExtensions } = this;
    const workBudget = this.remaining;
    const traced = this.trace ? { trace: true as const } : {};
    // ADR 0315: the assembled trees go to the evaluator as read documents whenever their text is certainly within
    // the carrier's limits; otherwise as their text, which the evaluator's preflight refuses exactly as it would.
    // An absent evidence document is passed as `evidence: undefined`, which the evaluator reads as omitted (§8.2).
    const r =
      withinLimits(facts, factsGrown) && (evidence === undefined || withinLimits(evidence, evidenceGrown))
        ? evaluateParsed(state.compiled, { facts, evidence, supportedExtensions, workBudget, ...traced })
        : evaluateCompiled(state.compiled, {
            facts: jsonBytes(facts),
            evidence: evidence === undefined ? undefined : jsonBytes(evidence),
            supportedExtensions,
            workBudget,
            ...traced,
          });
    this.remaining -= r.work;
    if (r.kind === 'error') throw new Stop(nodeRefusal(r.error, path));
    const { meta } = state;
    const target = r.disposition.handoff.state === 'requested' ? meta.target : undefined;
    // One literal per shape (no spread per node): the member order is the same either way.
    const leaf: LeafEntry =
      target === undefined
        ? {
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
            work: r.work,
          }
        : {
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
            handoffTarget: target,
            work: r.work,
          };
    // The trace rides beside the output contract's members, never in them (graphRunJson names each member).
    const kept: LeafEntry = r.trace === undefined ? leaf : { ...leaf, trace: r.trace };
    this.leaves.push(kept);
    return kept;
  }

  /** A subgraph node: bind its interface from its feeds (B2), run it whole (B6), then read its outputs. */
  private subgraph(
    inst: CompiledInstance,
    id: string,
    binding: Binding,
    produced: ReadonlyMap<string, Produced>,
  ): Produced {
    const child = inst.children.get(id)!;
    const bound = new InterfaceBinding();
    applyFeeds(inst.plan.feeds.get(id)!, binding, produced, bound);
    const { facts, evidence, factFeeds, evidenceFeeds } = bound;
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

  finish(root: CompiledInstance, result: InstanceResult): GraphEvaluation {
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
