/**
 * core/graph-closure: the closed set of packs and subgraphs a published graph pins by digest (ADR 0340), its one
 * serializer and strict reader, and the check every publish and every read runs. Pure.
 */
export { closureOf, type ClosureFinding, type GraphClosure, type TestedRows } from './closure.js';
export { readClosure, serializeClosure } from './closure-json.js';
export { checkClosedSet } from './closed-set.js';
export { closureDigest } from './closure-identity.js';
