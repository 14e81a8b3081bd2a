/**
 * Every command's exit statuses, in one table: `docket` and its subcommands, the graph commands and the scripts
 * around them name their status from here and define none of their own (test/cli/exit-codes.test.ts scans the whole
 * tree). Two vocabularies share the small numbers, each kept because scripts depend on it:
 *   - the pipeline and ledger commands use sysexits-style statuses (docs/adr/0040-cli-exit-codes-and-io.md);
 *   - `docket graph validate|evaluate` use the reference runtime's statuses (graph-semantics.md A1: 0 ok,
 *     1 invalid, 2 unsupported, 3 invocation, 4 io, 5 internal), so a graph author compares a run across tools
 *     (docs/adr/0314-graph-command-and-project-config.md). Their names start with GRAPH_.
 */
export const EXIT = Object.freeze({
  OK: 0,
  /** validate: the document is not conformant; conformance: a case failed. */
  FAILED: 1,
  /** evaluate: the result is a typed evaluation error (§8.4) rather than a disposition. */
  EVALUATION_ERROR: 2,
  /** verify, verify-receipt: a finding (the ledger or receipt does not verify); replay: not every entry matches. */
  NOT_OK: 1,
  /** verify, verify-receipt, replay: no verdict (an input could not be read or is not its format; ADR 0103). */
  NO_VERDICT: 2,
  /** receipt: the entry is recorded but no checkpoint covers it yet. */
  NOT_CHECKPOINTED: 3,
  /** EX_USAGE: the command line is wrong. */
  USAGE: 64,
  /** EX_NOINPUT: a named input file could not be read. */
  NO_INPUT: 66,
  /** EX_SOFTWARE: an internal error (a bug), never caused by document content. */
  SOFTWARE: 70,
  /** 128 + SIGPIPE: stdout's reader went away; the process stops quietly (cli/main.ts, ADR 0152). */
  CLOSED_PIPE: 141,
  /** 128 + n: the command died of signal n (the shell's convention; bin/docket.js, ADR 0331). */
  SIGNAL_BASE: 128,
  /** graph: the graph (or a pack it names) is invalid (A1). */
  GRAPH_INVALID: 1,
  /** graph: a required extension or format version is not supported (A1). */
  GRAPH_UNSUPPORTED: 2,
  /** graph: the invocation is wrong — a usage mistake, a bad configuration or inputs document (A1, A10). */
  GRAPH_INVOCATION: 3,
  /** graph: a file could not be read (A1). */
  GRAPH_IO: 4,
  /** graph: an internal error (A1). */
  GRAPH_INTERNAL: 5,
});

/** The statuses a graph command exits with (graph-semantics.md A1). */
export type GraphExit =
  | typeof EXIT.OK
  | typeof EXIT.GRAPH_INVALID
  | typeof EXIT.GRAPH_UNSUPPORTED
  | typeof EXIT.GRAPH_INVOCATION
  | typeof EXIT.GRAPH_IO
  | typeof EXIT.GRAPH_INTERNAL;
