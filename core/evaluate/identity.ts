/** Names this evaluator in ledger entries and replays; bump `version` whenever any disposition, error or work
 * charge could change for some input. */
export const EVALUATOR_IDENTITY = Object.freeze({ name: 'docket-evaluator', version: '0.1.0' } as const);
