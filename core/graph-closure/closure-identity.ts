/**
 * A published graph's identity (docs/adr/0450-a-graph-is-named-by-its-closure.md): the SHA-256 of its canonical
 * closure record, which holds the graph document's digest and every member pack's and subgraph's. One digest fixes
 * the graph document AND the exact set of packs and subgraphs it runs, so a registry that serves another closed set
 * under that digest is caught by hashing what it served, with no key and no history.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Result } from '../result.js';
import type { GraphClosure } from './closure.js';
import { serializeClosure, type ClosureRecordError } from './closure-json.js';

/**
 * "sha256:<hex>" of the closure's one serialization (closure-json.ts) over exactly the members a graph-run entry
 * also records (the graph's digest, id and version, and every pin), so an entry re-derives it; any other member a
 * record may carry is not part of the identity. Or why the closure is not a record.
 */
export function closureDigest(c: GraphClosure): Result<string, ClosureRecordError> {
  const { format, graph, graphId, graphVersion, packs, graphs } = c;
  const record = serializeClosure({ format, graph, graphId, graphVersion, packs, graphs });
  // Portable SHA-256 (the same bytes as core/graph's bytesDigest): a verifier in a browser re-derives it too.
  return record.ok ? { ok: true, value: `sha256:${bytesToHex(sha256(record.value))}` } : record;
}
