/**
 * Where the commands that wait for result notifications (`docket submit --wait`, `docket bench live`) find the
 * results topic and how they reach SNS, from the same settings as every pipeline command (stack/settings.ts).
 */
import { UsageError } from './args.js';
import type { StackSettings } from '../stack/settings.js';

export function snsOptions(settings: StackSettings) {
  return { ...(settings.endpoint ? { endpoint: settings.endpoint } : {}), region: settings.region };
}

/**
 * The results topic: --results-topic, else RESULTS_TOPIC_ARN, else docket-<stage>-results in the intake queue's
 * account and region (a queue URL's path starts with the account id), as infra/names.ts names it.
 */
export function resultsTopicArn(flag: string | undefined, intakeUrl: string, settings: StackSettings): string {
  const explicit = flag ?? process.env.RESULTS_TOPIC_ARN;
  if (explicit !== undefined && explicit.trim() !== '') return explicit.trim();
  const account = /^https?:\/\/[^/]+\/(\d{12})\//.exec(intakeUrl)?.[1];
  if (account === undefined)
    throw new UsageError(`cannot tell the results topic from the intake queue URL ${intakeUrl}; give --results-topic`);
  return `arn:aws:sns:${settings.region}:${account}:${settings.queuePrefix}-results`;
}
