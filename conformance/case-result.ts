/** One corpus case's result and the suites, shared by the runner and the graph suite's runner (no cycle). */
export type Suite = 'document' | 'evaluation' | 'rfc0008-document' | 'rfc0008-evaluation' | 'graph';

export interface CaseResult {
  readonly suite: Suite;
  readonly id: string;
  readonly description: string;
  readonly passed: boolean;
  /** What was expected and what happened, for people. */
  readonly expected: string;
  readonly actual: string;
}
