/**
 * `node dist/localstack/provision-cli.js [--endpoint URL] [--stage NAME] [--region R]`: creates infra's tables and
 * queues on an already running stack — real LocalStack from docker-compose.yml (default endpoint
 * AWS_ENDPOINT_URL or http://127.0.0.1:4566). Prints what it created as JSON.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_LOCAL_ENDPOINT } from '../adapters/aws-clients.js';
import { provisionAt } from './launcher.js';
import { EXIT } from '../core/exit-codes.js';

const { values } = parseArgs({
  options: { endpoint: { type: 'string' }, stage: { type: 'string' }, region: { type: 'string' } },
  strict: true,
});
const endpoint = values.endpoint ?? process.env.AWS_ENDPOINT_URL ?? DEFAULT_LOCAL_ENDPOINT;
provisionAt(endpoint, { stage: values.stage ?? 'local', region: values.region ?? process.env.AWS_REGION })
  .then((r) => {
    process.stdout.write(
      `${JSON.stringify({ endpoint, tables: r.tables.map((t) => t.name), queues: Object.fromEntries(r.queues.map((q) => [q.name, q.url])) }, null, 2)}\n`,
    );
  })
  .catch((e: unknown) => {
    process.stderr.write(`provisioning ${endpoint} failed: ${(e as Error).message}\n`);
    process.exit(EXIT.FAILED);
  });
