/**
 * @docket/client: a requester's client — submit requests, and receive only results proven as `docket submit --wait`
 * proves them (adapters/docket-client.ts, docs/adr/0444-client-results-verified-as-submit-wait.md). This file only
 * names the public surface (docs/adr/0440-packages-built-from-the-repository-folders.md).
 */
export {
  docketClient,
  DocketClientError,
  type ClientReceipt,
  type ClientResult,
  type DocketClient,
  type DocketClientOptions,
  type EvaluationRequestInput,
  type GraphRequestInput,
  type JsonDocument,
  type RefusedResult,
  type ResultsOptions,
  type SubmitManyResult,
} from '../../../adapters/docket-client.js';
export { readTrustPolicy, type TrustPolicy } from '../../../core/ledger/trust-policy/index.js';
export { RESULT_REJECTIONS, type ResultRejection } from '../../../core/pipeline/result-verdict.js';
