/**
 * core/graph-closure: the closed set of packs and subgraphs a published graph pins by digest (ADR 0340), its one
 * serializer and strict reader, and the check every publish and every read runs. Pure.
 */
export {
  closureOf,
  CLOSURE_FORMAT,
  type ClosureCode,
  type ClosureFinding,
  type GraphClosure,
  type TestedRows,
} from './closure.js';
export { readClosure, serializeClosure, type ClosureRecordError } from './closure-json.js';
export { checkClosedSet, type ClosedSet, type FetchedMembers } from './closed-set.js';
export { closureDigest } from './closure-identity.js';
