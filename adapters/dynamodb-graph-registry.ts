/**
 * Published judgment graphs, beside the packs in the pack registry's table (ADR 0340):
 *   graph          pk "graph#<digest>"                    sk "graph"          bytes (B), size (N)
 *   closure        pk "graph-closure#<digest>"            sk "graph-closure"  bytes (B): docket.graph-closure/1
 *   graph alias    pk "graph-alias#<id>@<version>"        sk "graph-alias"    digest (S)
 * All conditional creates. A graph digest names one closed set forever: its closure record is written once, after
 * every member is stored and checked, and before the alias; every read re-hashes the graph, re-reads the closure
 * strictly, fetches every member (re-hashed by the pack registry / content table) and re-runs the closed-set check.
 */
import {
  checkClosedSet,
  readClosure,
  serializeClosure,
  type ClosureFinding,
  type GraphClosure,
} from '../core/graph-closure/index.js';
import type { GraphProject } from '../core/graph/index.js';
import { ContentTable, DIGEST_PATTERN, MAX_STORED_BYTES, type ContentTableOptions } from './content-table.js';
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
   * passes over what the registry now holds) the closure record, then the alias `id@version`.
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
    if (!record.ok) throw new RegistryIntegrityError(record.error.message);
    const { digest, created } = await this.table.putContent('graph', bytes);
    const closureCreated = await this.table.putIfAbsent({
      ...this.table.key(`graph-closure#${digest}`, 'graph-closure'),
      bytes: { B: record.value },
    });
    if (!closureCreated) {
      const existing = await this.closureBytes(digest);
      if (existing === null || !equalBytes(existing, record.value))
        return {
          ok: false,
          code: 'closure-conflict',
          digest,
          message: `sha256:${digest} is already published with another closed set of packs and subgraphs; publish a new graph version`,
        };
    }
    const aliasCreated = await this.table.putIfAbsent({
      ...this.table.key(`graph-alias#${alias}`, 'graph-alias'),
      digest: { S: digest },
    });
    if (!aliasCreated && (await this.resolveGraphAlias(alias)) !== digest)
      return {
        ok: false,
        code: 'alias-conflict',
        alias,
        message: `${alias} is already published as another graph; an alias is immutable, publish a new version`,
      };
    return { ok: true, digest, alias, created: created || closureCreated || aliasCreated };
  }

  /** The hex digest a graph alias names, or null. */
  async resolveGraphAlias(alias: string): Promise<string | null> {
    const item = await this.table.getItem(`graph-alias#${alias}`, 'graph-alias');
    const digest = item?.digest?.S;
    if (item && (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest)))
      throw new RegistryIntegrityError(`graph alias ${alias} holds no valid digest`);
    return digest ?? null;
  }

  /**
   * The published graph for a hex digest, re-checked as a closed set; null when none is published. A graph whose
   * bytes, closure record or members fail their checks is never served: RegistryIntegrityError.
   */
  async getGraph(digest: string): Promise<PublishedGraph | null> {
    const bytes = await this.graphBytes(digest);
    if (bytes === null) return null;
    const record = await this.closureBytes(digest);
    if (record === null) return null; // stored bytes without a closure were never published (the write stopped)
    const closure = readClosure(record);
    if (!closure.ok) throw new RegistryIntegrityError(`graph sha256:${digest}: ${closure.error.message}`);
    const check = checkClosedSet(closure.value, bytes, await this.fetchMembers(closure.value));
    if (!check.ok)
      throw new RegistryIntegrityError(
        `graph sha256:${digest} is not a closed set: ${check.findings.map((f) => f.message).join('; ')}`,
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

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
