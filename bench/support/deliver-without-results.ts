/**
 * The deliver handler with no results topic, for the same-run baseline of bench/pipeline.bench.ts: the stack's
 * template gives the function RESULTS_TOPIC_ARN; removing it before the first invocation (the handler reads its
 * environment at cold start) leaves everything else as deployed, and nothing is published.
 */
delete process.env.RESULTS_TOPIC_ARN;
export { handler } from '../../functions/deliver.js';
