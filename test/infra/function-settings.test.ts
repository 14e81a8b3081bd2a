/**
 * The functions refuse to start without a setting every synthesized stack gives them (infra/function-environment.ts),
 * rather than run without the behaviour it enables (docs/adr/0501-the-deliver-function-requires-its-results-topic.md).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../infra/config.js';
import { deliverEnvironment, evaluateEnvironment } from '../../infra/function-environment.js';
import { resourceNames } from '../../infra/names.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { deliverRuntimeFromEnv } from '../../functions/lib/deliver-runtime.js';
import { evaluateRuntimeFromEnv } from '../../functions/lib/evaluate-runtime.js';

const config = defaultConfig('local');
const local = {
  config,
  names: resourceNames('local', config),
  queueUrl: (q: string) => `http://127.0.0.1:4566/000000000000/${q}`,
  resultsTopicArn: 'arn:aws:sns:us-east-1:000000000000:docket-local-results',
};
const without = (env: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k !== name));
const ENDPOINT = { AWS_ENDPOINT_URL: 'http://127.0.0.1:1', AWS_REGION: 'us-east-1' };

describe('a function started without a setting every stack gives it', () => {
  it('is the deliver function refusing to start without its results topic (the control: it starts with it)', () => {
    const env = { ...deliverEnvironment(local), ...ENDPOINT };
    expect(() => deliverRuntimeFromEnv({ env })).not.toThrow();
    expect(() => deliverRuntimeFromEnv({ env: without(env, 'RESULTS_TOPIC_ARN') })).toThrow(
      new TypeError('RESULTS_TOPIC_ARN is required'),
    );
  });

  it('is the evaluate function refusing to start without the ledger queue a claim-in-other-log goes on to', () => {
    const env = { ...evaluateEnvironment({ ...local, signingSecretArn: 'arn:local' }), ...ENDPOINT };
    const o = { signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(5))), buildDigest: 'test' };
    expect(() => evaluateRuntimeFromEnv({ ...o, env })).not.toThrow();
    expect(() => evaluateRuntimeFromEnv({ ...o, env: without(env, 'LEDGER_QUEUE_URL') })).toThrow(
      new TypeError('LEDGER_QUEUE_URL is required'),
    );
  });
});
