/**
 * `docket checkpoint`: writes a signed checkpoint of every log now (on demand; the checkpoint function does the
 * same on its schedule) and exports all checkpoints to a file (default .docket/local/checkpoints.json), which
 * `docket verify` reads as the anchor. The signing key comes from --key (default the local stack's key file).
 */
import { writeFileSync } from 'node:fs';
import { EXIT, parseCommandArgs } from '../args.js';
import type { CliIo } from '../io.js';
import { signerFromKeyPair } from '../../core/ledger/signature.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { localPaths } from '../../functions/lib/local-files.js';
import { parseSigningKey } from '../../functions/lib/signing-key.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { readFileSync } from 'node:fs';

const USAGE = `docket checkpoint [--key <signing-key.json>] [--out <checkpoints.json>] [--logs <id,id…>]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      ...SETTING_FLAGS,
      key: { type: 'string' },
      out: { type: 'string' },
      logs: { type: 'string' },
      help: { type: 'boolean' },
    },
    { min: 0, max: 0 },
  );
  if (values.help) {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  const keyFile = typeof values.key === 'string' ? values.key : localPaths().signingKey;
  let signer;
  try {
    signer = signerFromKeyPair(parseSigningKey(readFileSync(keyFile, 'utf8'), keyFile));
  } catch (e) {
    io.stderr(`docket checkpoint: cannot use the signing key ${keyFile}: ${(e as Error).message}\n`);
    return EXIT.FAILED;
  }
  const settings = resolveSettings(values as never, process.env);
  const stack = openStack(settings);
  try {
    const logIds =
      typeof values.logs === 'string' ? values.logs.split(',').filter(Boolean) : await stack.store.listLogs();
    const r = await runCheckpoints({
      store: stack.store,
      signer,
      logIds,
      origin: { environment: settings.stage, table: settings.ledgerTable },
      time: rfc3339Now(),
    });
    const out = typeof values.out === 'string' ? values.out : localPaths().checkpoints;
    writeFileSync(out, r.export);
    for (const c of r.checkpoints)
      io.stdout(`${c.logId}  tree size ${c.treeSize}${c.written ? '' : '  (already checkpointed)'}\n`);
    io.stderr(`checkpoint export written to ${out}\n`);
    return EXIT.OK;
  } catch (e) {
    io.stderr(`docket checkpoint: ${explainStackError(e, settings)}\n`);
    return EXIT.FAILED;
  } finally {
    stack.close();
  }
}
