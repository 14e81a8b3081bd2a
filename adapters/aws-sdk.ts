/**
 * The AWS SDK v3 clients every request goes through (DynamoDB, SQS, SNS), loaded in one place.
 *
 * The SDK ships CommonJS. An ESM `import` of a CommonJS module makes Node first scan all of its source for export
 * names (cjs-module-lexer) and then run it; client-dynamodb is one 178 KB file. Loading the same files with
 * require() skips the scan. Measured with `npm run build && node dist/bench/bundle.bench.js`: module init of the
 * deployed evaluate bundle 151–157 ms with ESM imports of the runtime's SDK, ~114 ms with require() (ADR 0421).
 *
 * A build that bundles the SDK (`bundleAwsSdk`) defines DOCKET_BUNDLED_SDK, and esbuild then inlines the dynamic
 * imports below instead: a require() made through createRequire is invisible to a bundler and would load the
 * runtime's SDK, not the pinned one.
 */
import { createRequire } from 'node:module';
import type * as DynamoDb from '@aws-sdk/client-dynamodb';
import type * as Sns from '@aws-sdk/client-sns';
import type * as Sqs from '@aws-sdk/client-sqs';

const bundled = process.env.DOCKET_BUNDLED_SDK === 'true';
const load = createRequire(import.meta.url);

export const dynamodb: typeof DynamoDb = bundled
  ? await import('@aws-sdk/client-dynamodb')
  : load('@aws-sdk/client-dynamodb');
export const sqs: typeof Sqs = bundled ? await import('@aws-sdk/client-sqs') : load('@aws-sdk/client-sqs');
export const sns: typeof Sns = bundled ? await import('@aws-sdk/client-sns') : load('@aws-sdk/client-sns');
