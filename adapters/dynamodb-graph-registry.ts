/**
 * Published judgment graphs, beside the packs in the pack registry's table (ADR 0340), each named by the digest of its
 * closure record (docs/adr/0450-a-graph-is-named-by-its-closure.md):
 *   graph          pk "graph#<document digest>"           sk "graph"          bytes (B), size (N)
 *   closure        pk "graph-closure#<closure digest>"    sk "graph-closure"  bytes (B): docket.graph-closure/1
 *   graph alias    pk "graph-alias#<id>@<version>"        sk "graph-alias"    digest (S): a closure digest
 * All conditional creates. A closure digest names one graph document and one closed set of members forever: its
 * record is written once, after every member is stored and checked, and before the alias. Every read re-hashes the
 * graph, re-reads the closure strictly, fetches every member (re-hashed by the pack registry / content table) and
 * re-runs the closed-set check; that the closure served is the one the digest names is admission's check
 * (core/admission decideGraph), so a rewritten item is recorded as a refusal, never thrown.
 */
import {
  checkClosedSet,
  closureDigest,
  readClosure,
  serializeClosure,
  type ClosureFinding,
  type GraphClosure,
} from '../core/graph-closure/index.js';
import type { GraphProject } from '../core/graph/index.js';
import { ContentTable, MAX_STORED_BYTES, type ContentTableOptions } from './content-table.js';
import { DynamoDbPackRegistry, RegistryIntegrityError } from './dynamodb-pack-registry.js';

export type GraphPublishOutcome =
  | { readonly ok: true; readonly digest: string; readonly alias: string; readonly created: boolean }
  | {
      readonly ok: false;
      readonly code: 'graph-not-closed';
      readonly findings: readonly ClosureFinding[];
      readonly message: string;
    }
  | { readonly ok: false; readonly code: 'closure-conflict'; readonly digest: string; readonly message: string }
  | { readonly ok: false; readonly code: 'alias-conflict'; readonly alias: string; readonly message: string }
  | { readonly ok: false; readonly code: 'invalid-alias'; readonly alias: string; readonly message: string }
  | { readonly ok: false; readonly code: 'graph-too-large'; readonly size: number; readonly message: string };

/** A published graph, re-checked on read: its exact bytes, its closure, and the project its members form. */
export interface PublishedGraph {
  /** The graph document's digest (hex); the graph is published under its closure's digest (ADR 0450). */
  readonly digest: string;
  readonly bytes: Uint8Array;
  readonly closure: GraphClosure;
  readonly project: GraphProject;
}

const hex = (digest: string): string => digest.replace(/^sha256:/, '');

export class DynamoDbGraphRegistry {
  private readonly table: ContentTable;
  private readonly packs: DynamoDbPackRegistry;

  constructor(options: ContentTableOptions) {
    this.table = new ContentTable(options);
    this.packs = new DynamoDbPackRegistry(options);
  }

  /**
   * Publishes a graph whose members are already published: graph bytes, then (only when the closed-set check
   * passes over what the registry now holds, and the alias `id@version` names no other closure) the closure record
   * under its own digest, then the alias. The outcome's digest is the closure digest (ADR 0450).
   */
  async publishGraph(bytes: Uint8Array, closure: GraphClosure): Promise<GraphPublishOutcome> {
    const alias = `${closure.graphId}@${closure.graphVersion}`;
    if (closure.graphId.includes('@'))
      return { ok: false, code: 'invalid-alias', alias, message: `"${alias}" is not an id@version alias` };
    if (bytes.byteLength > MAX_STORED_BYTES)
      return {
        ok: false,
        code: 'graph-too-large',
        size: bytes.byteLength,
        message: `the graph is ${bytes.byteLength} bytes; the registry stores at most ${MAX_STORED_BYTES}`,
      };
    const check = checkClosedSet(closure, bytes, await this.fetchMembers(closure));
    if (!check.ok)
      return {
        ok: false,
        code: 'graph-not-closed',
        findings: check.findings,
        message: check.findings.map((f) => f.message).join('; '),
      };
    const record = serializeClosure(closure);
    const named = closureDigest(closure);
    if (!record.ok || !named.ok) throw new RegistryIntegrityError('the closure checked above has no record');
    const digest = hex(named.value);
    const taken = await this.resolveGraphAlias(alias);
    // id@version names one closed set forever: another closure under it is a new version, never a second meaning.
    if (taken !== null && taken !== digest) return aliasConflict(alias);
    const { created } = await this.table.putContent('graph', bytes);
    const closureCreated = await this.table.putIfAbsent({
      ...this.table.key(`graph-closure#${digest}`, 'graph-closure'),
      bytes: { B: record.value },
    });
    if (!closureCreated) {
      const existing = await this.closureBytes(digest);
      if (existing === null || Buffer.compare(existing, record.value) !== 0)
        return {
          ok: false,
          code: 'closure-conflict',
          digest,
          message: `the item for sha256:${digest} holds another closure record: the registry was rewritten`,
        };
    }
    const aliasCreated = await this.table.putIfAbsent({
      ...this.table.key(`graph-alias#${alias}`, 'graph-alias'),
      digest: { S: digest },
    });
    if (!aliasCreated && (await this.resolveGraphAlias(alias)) !== digest) return aliasConflict(alias);
    return { ok: true, digest, alias, created: created || closureCreated || aliasCreated };
  }

  /** The hex digest a graph alias names, or null. */
  async resolveGraphAlias(alias: string): Promise<string | null> {
    const invalid = () => new RegistryIntegrityError(`graph alias ${alias} holds no valid digest`);
    return this.table.aliasDigest('graph-alias', alias, invalid);
  }

  /**
   * The published graph a closure digest (hex) names, its members re-checked as a closed set; null when none is
   * published. A graph whose bytes, closure record or members fail their checks is never served:
   * RegistryIntegrityError. Whether the closure is the one `closureHex` names is for the caller to hash (ADR 0450).
   */
  async getGraph(closureHex: string): Promise<PublishedGraph | null> {
    const record = await this.closureBytes(closureHex);
    if (record === null) return null;
    const closure = readClosure(record);
    if (!closure.ok) throw new RegistryIntegrityError(`graph sha256:${closureHex}: ${closure.error.message}`);
    const digest = hex(closure.value.graph);
    const bytes = await this.graphBytes(digest);
    if (bytes === null) throw new RegistryIntegrityError(`graph sha256:${closureHex}: its graph document is gone`);
    const check = checkClosedSet(closure.value, bytes, await this.fetchMembers(closure.value));
    if (!check.ok)
      throw new RegistryIntegrityError(
        `graph sha256:${closureHex} is not a closed set: ${check.findings.map((f) => f.message).join('; ')}`,
      );
    return { digest, bytes, closure: closure.value, project: check.project };
  }

  private graphBytes(digest: string): Promise<Uint8Array | null> {
    return this.table.getContent(
      'graph',
      digest,
      () => new RegistryIntegrityError(`stored graph ${digest} does not hash to its digest`),
    );
  }

  private async closureBytes(digest: string): Promise<Uint8Array | null> {
    const item = await this.table.getItem(`graph-closure#${digest}`, 'graph-closure');
    if (!item) return null;
    const b = item.bytes?.B;
    if (!(b instanceof Uint8Array)) throw new RegistryIntegrityError(`graph closure ${digest} holds no bytes`);
    return b;
  }

  private async fetchMembers(c: GraphClosure): Promise<{
    packs: Map<string, Uint8Array | null>;
    graphs: Map<string, Uint8Array | null>;
  }> {
    const packs = new Map<string, Uint8Array | null>();
    const graphs = new Map<string, Uint8Array | null>();
    for (const [name, pin] of Object.entries(c.packs)) packs.set(name, await this.packs.getPack(hex(pin)));
    for (const [name, pin] of Object.entries(c.graphs)) graphs.set(name, await this.graphBytes(hex(pin)));
    return { packs, graphs };
  }
}

const aliasConflict = (alias: string): GraphPublishOutcome => ({
  ok: false,
  code: 'alias-conflict',
  alias,
  message: `${alias} is already published as another graph; an alias is immutable, publish a new version`,
});
