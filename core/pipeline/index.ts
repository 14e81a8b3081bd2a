/**
 * The pipeline's public names for code outside core/ (ADR 0151). Older deep imports into core/pipeline are listed in
 * .dependency-cruiser-known-violations.json; new ones come through here.
 */
export {
  RESULT_FORMAT,
  RESULT_ATTRIBUTE_NAMES,
  RESULT_MAX_BYTES,
  notificationAttributes,
  readResultNotification,
  resultNotificationFor,
  ResultInvariantError,
  type ResultMessage,
  type ResultNotification,
  type ResultReadError,
} from './result-notification.js';
export { requestIdFilterPolicies, FILTER_POLICY_MAX_VALUES } from './result-filter.js';
export type { ResultPublisher } from './ports.js';
