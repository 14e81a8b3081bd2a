/**
 * `docket keygen`: a new Ed25519 signing key (docket.signing-key/1, written with mode 0600; the secret never goes
 * to stdout) and, with --trust-policy, the matching trust policy for verifiers. For the cloud, store the key file's
 * content as the SIGNING_SECRET_ARN secret (e.g. `aws secretsmanager put-secret-value --secret-string file://…`)
 * and delete the file.
 */
import { EXIT, parseCommandArgs } from '../args.js';
import type { CliIo } from '../io.js';
import { toHex } from '../../core/ledger/bytes.js';
import { LOCAL_STAGE } from '../../stack/settings.js';
import { localPaths, newKeyPair, trustPolicyDocument, writeSigningKey } from '../../functions/lib/local-files.js';
import { writeFileSync } from 'node:fs';

const USAGE = `docket keygen [--out <key.json>] [--force] [--trust-policy <policy.json> --logs <id,id…> [--environment <stage>] [--table <ledger-table>] [--build <sha256-hex>]…]`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      out: { type: 'string' },
      force: { type: 'boolean' },
      'trust-policy': { type: 'string' },
      logs: { type: 'string' },
      environment: { type: 'string' },
      table: { type: 'string' },
      build: { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
    { min: 0, max: 0 },
  );
  if (values.help) {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  const out = typeof values.out === 'string' ? values.out : localPaths().signingKey;
  const keys = newKeyPair();
  try {
    writeSigningKey(out, keys, values.force === true);
  } catch (e) {
    io.stderr(`docket keygen: ${(e as Error).message}\n`);
    return EXIT.FAILED;
  }
  io.stdout(`${JSON.stringify({ keyId: keys.keyId, publicKey: toHex(keys.publicKey), keyFile: out })}\n`);
  if (typeof values['trust-policy'] === 'string') {
    if (typeof values.logs !== 'string') {
      io.stderr(`docket keygen: --trust-policy needs --logs\nusage: ${USAGE}\n`);
      return EXIT.USAGE;
    }
    const environment = typeof values.environment === 'string' ? values.environment : LOCAL_STAGE;
    writeFileSync(
      values['trust-policy'],
      trustPolicyDocument({
        keys,
        logIds: values.logs.split(',').filter(Boolean),
        environment,
        table: typeof values.table === 'string' ? values.table : `docket-${environment}-ledger`,
        evaluatorBuilds: (values.build as string[] | undefined) ?? [],
      }),
    );
    io.stderr(`trust policy written to ${values['trust-policy']}\n`);
  }
  return EXIT.OK;
}
