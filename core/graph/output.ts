/**
 * The one serializer of a graph run's answer (graph-semantics.md "Output contract"): exactly one JSON object, its
 * members in a fixed order. Every disposition goes through the disposition serializer (core/evaluate/disposition.ts),
 * which checks every §8.3 invariant before it emits bytes.
 */
import { canonicalDisposition, type Disposition } from '../evaluate/index.js';
import { toPlain } from '../carrier/index.js';
import type { EvidenceFeed, FactFeed, GraphRun, LeafEntry } from './graph-run.js';
import type { GraphValidation } from './validate.js';

const disposition = (d: Disposition): unknown => JSON.parse(canonicalDisposition(d));

const factFeeds = (feeds: readonly FactFeed[]): unknown[] =>
  feeds.map((f) => (f.value === undefined ? f : { ...f, value: toPlain(f.value) }));
const evidenceFeeds = (feeds: readonly EvidenceFeed[]): unknown[] =>
  feeds.map((f) => (f.state === undefined ? f : { ...f, state: toPlain(f.state) }));

function leaf(l: LeafEntry): unknown {
  return {
    node: l.node,
    instancePath: l.instancePath,
    pack: l.pack,
    packId: l.packId,
    packVersion: l.packVersion,
    specVersion: l.specVersion,
    factFeeds: factFeeds(l.factFeeds),
    evidenceFeeds: evidenceFeeds(l.evidenceFeeds),
    disposition: disposition(l.disposition),
    ...(l.handoffTarget !== undefined ? { handoffTarget: l.handoffTarget } : {}),
    work: l.work,
  };
}

export function graphRunJson(run: GraphRun): string {
  if (run.status === 'refused') {
    const e = run.error;
    return JSON.stringify({
      status: 'refused',
      error: {
        layer: e.layer,
        code: e.code,
        diagnostic: e.diagnostic,
        class: e.class,
        phase: e.phase,
        node: e.node,
        message: e.message,
      },
    });
  }
  return JSON.stringify({
    status: run.status,
    experimental: run.experimental,
    formatVersion: run.formatVersion,
    graphId: run.graphId,
    graphVersion: run.graphVersion,
    graphDigest: run.graphDigest,
    resultNode: run.resultNode,
    ...(run.headline !== undefined
      ? { headline: { node: run.headline.node, disposition: disposition(run.headline.disposition) } }
      : {}),
    disposition: disposition(run.disposition),
    ...(run.handoffTarget !== undefined ? { handoffTarget: run.handoffTarget } : {}),
    handoffs: run.handoffs,
    nodes: run.nodes.map(leaf),
    ...(run.subgraphs !== undefined
      ? {
          subgraphs: run.subgraphs.map((s) => ({
            ...s,
            factFeeds: factFeeds(s.factFeeds),
            evidenceFeeds: evidenceFeeds(s.evidenceFeeds),
            outputs: Object.fromEntries(Object.entries(s.outputs).map(([k, d]) => [k, disposition(d)])),
          })),
        }
      : {}),
    work: run.work,
  });
}

export function graphValidationJson(v: GraphValidation): string {
  return JSON.stringify({
    status: v.status,
    diagnostics: v.diagnostics.map((d) => ({ code: d.code, path: d.path, message: d.message })),
  });
}
