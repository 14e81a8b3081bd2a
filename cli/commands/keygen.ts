/**
 * `docket keygen`: a new Ed25519 key (docket.signing-key/1, written with mode 0600; the secret never goes to stdout)
 * and, with --trust-policy, a docket.trust-policy/2 for verifiers that pins it as the entry key next to a separate
 * checkpoint key (docs/adr/0120-separate-entry-and-checkpoint-keys.md): either a new local key file
 * (--checkpoint-out) or the public half of the deployment's KMS checkpoint key (--checkpoint-public-key, the base64
 * DER that `aws kms get-public-key --query PublicKey --output text` prints, or 64 hex digits). For the cloud, store
 * the entry key file's content as the SIGNING_SECRET_ARN secret and delete the file. The checkpoint key's line also
 * gives, with --logs, its C2SP vkey per log (`vkeys`, ADR 0302).
 */
import { writeFileSync } from 'node:fs';
import { EXIT, flagTable, parseCommandArgs, reportUsage, fail } from '../args.js';
import type { CliIo } from '../io.js';
import { checkpointVkeys, fromHex, isHex, toHex } from '../../core/ledger/index.js';
import { ed25519FromSpki, isAcceptablePublicKey, keyIdOf } from '../../core/ledger/index.js';
import { LOCAL_STAGE } from '../../stack/settings.js';
import {
  localPaths,
  newKeyPair,
  trustPolicyDocument,
  writeSigningKey,
  type PublicKeyPin,
} from '../../stack/local-files.js';

const USAGE = `docket keygen [--out <key.json>] [--force] [--trust-policy <policy.json> --logs <id,id…> (--checkpoint-out <checkpoint-key.json> | --checkpoint-public-key <base64 DER | hex>) [--environment <stage>] [--table <ledger-table>] [--build <sha256-hex>]… [--rfc0008-quantifiers]]`;

/** A checkpoint public key given on the command line: 64 hex digits, or the base64 DER SPKI KMS returns. */
export function parsePublicKeyArg(text: string): PublicKeyPin | null {
  const t = text.trim();
  let raw: Uint8Array | null;
  if (isHex(t, 32)) raw = fromHex(t);
  else if (/^[A-Za-z0-9+/]+={0,2}$/.test(t)) raw = ed25519FromSpki(new Uint8Array(Buffer.from(t, 'base64')));
  else raw = null;
  return raw !== null && isAcceptablePublicKey(raw) ? { keyId: keyIdOf(raw), publicKey: raw } : null;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    flagTable(
      ['out', 'trust-policy', 'checkpoint-out', 'checkpoint-public-key', 'logs', 'environment', 'table'],
      // --rfc0008-quantifiers: the policy permits the draft feature on every log (docket.trust-policy/3, ADR 0222):
      // for a deployment that enables it (infra/config.ts draftFeatures), so its checkpoint writer vouches for them.
      ['force', 'rfc0008-quantifiers'],
      ['build'],
    ),
    USAGE,
  );
  const wantsPolicy = typeof values['trust-policy'] === 'string';
  const cpOut = values['checkpoint-out'];
  const cpPublic = values['checkpoint-public-key'];
  if (
    wantsPolicy &&
    (typeof values.logs !== 'string' || (typeof cpOut === 'string') === (typeof cpPublic === 'string'))
  )
    return reportUsage(
      io,
      'keygen',
      '--trust-policy needs --logs and exactly one of --checkpoint-out, --checkpoint-public-key',
      USAGE,
    );
  let checkpointKey: PublicKeyPin | null = null;
  if (typeof cpPublic === 'string') {
    checkpointKey = parsePublicKeyArg(cpPublic);
    if (checkpointKey === null)
      return fail(
        io,
        'keygen',
        '--checkpoint-public-key is not an acceptable Ed25519 public key (base64 DER SPKI or 64 hex)',
        EXIT.USAGE,
      );
  }
  /** A new key pair written to `path`, or null after saying why it could not be. */
  const newKeyFile = (path: string) => {
    const keys = newKeyPair();
    try {
      writeSigningKey(path, keys, values.force === true);
      return keys;
    } catch (e) {
      io.stderr(`docket keygen: ${(e as Error).message}\n`);
      return null;
    }
  };
  const out = typeof values.out === 'string' ? values.out : localPaths().signingKey;
  const keys = newKeyFile(out);
  if (keys === null) return EXIT.FAILED;
  io.stdout(`${JSON.stringify({ keyId: keys.keyId, publicKey: toHex(keys.publicKey), keyFile: out })}\n`);
  if (typeof cpOut === 'string') {
    checkpointKey = newKeyFile(cpOut);
    if (checkpointKey === null) return EXIT.FAILED;
  }
  const environment = typeof values.environment === 'string' ? values.environment : LOCAL_STAGE;
  const table = typeof values.table === 'string' ? values.table : `docket-${environment}-ledger`;
  const logIds = typeof values.logs === 'string' ? values.logs.split(',').filter(Boolean) : [];
  if (checkpointKey !== null) {
    // ADR 0302: the checkpoint key as C2SP vkeys, one per log (a log key's name is the log's origin, ADR 0130),
    // so a stock signed-note verifier or C2SP witness is configured from this output without translation.
    let vkeys: Record<string, string>;
    try {
      vkeys = checkpointVkeys(checkpointKey.publicKey, { environment, table }, logIds);
    } catch (e) {
      return fail(io, 'keygen', (e as Error).message, EXIT.USAGE);
    }
    io.stdout(
      `${JSON.stringify({
        keyId: checkpointKey.keyId,
        publicKey: toHex(checkpointKey.publicKey),
        ...(typeof cpOut === 'string' ? { keyFile: cpOut } : {}),
        role: 'checkpoints',
        ...(logIds.length > 0 ? { vkeys } : {}),
      })}\n`,
    );
  }
  if (wantsPolicy && checkpointKey !== null) {
    writeFileSync(
      values['trust-policy'] as string,
      trustPolicyDocument({
        keys,
        checkpointKey,
        logIds,
        environment,
        table,
        evaluatorBuilds: (values.build as string[] | undefined) ?? [],
        ...(values['rfc0008-quantifiers'] === true ? { draftFeatures: ['rfc0008-quantifiers'] } : {}),
      }),
    );
    io.stderr(`trust policy written to ${values['trust-policy']}\n`);
  }
  return EXIT.OK;
}
