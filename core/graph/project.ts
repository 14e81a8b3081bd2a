/**
 * What the caller hands the graph layer instead of a file system (core is pure): the bytes of every pack and graph
 * the project's jpack.json names, each read once (B3 "one snapshot"), or why it could not be read.
 */
export type SourceFile =
  { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly message: string };

export interface GraphProject {
  /** jpack.json `packs`: decision id → the pack file. */
  readonly packs: ReadonlyMap<string, SourceFile>;
  /** jpack.json `graphs`: graph name → the graph file. */
  readonly graphs: ReadonlyMap<string, SourceFile>;
  /** The `graphs` name of the root document, when it is one of them: a reference back to it is recursion (B5). */
  readonly rootName?: string;
}
