/**
 * `docket checkpoint`: the verifying checkpoint writer over every log now (the checkpoint function runs it on its
 * schedule), signed with the checkpoint key — never the entry key — and exported for `docket verify`. A log with an
 * entry verify would refuse gets no checkpoint: each finding on stderr, exit 1
 * (docs/adr/0121-checkpoints-verify-before-signing.md); nor does any log while the archive cross-check reports an
 * archived request without an entry (docs/adr/0457-no-checkpoint-over-an-open-omission.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { EXIT, flagTable, parseCommandArgs, fail } from '../args.js';
import type { CliIo } from '../io.js';
import { signerFromKeyPair, type Signer } from '../../core/ledger/index.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/index.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { describeRefusal, rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { localPaths } from '../../stack/local-files.js';
import { parseSigningKey } from '../../adapters/signing-key.js';
import { onStack } from '../on-stack.js';
import { archiveCheckOf } from '../../stack/request-omissions.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket checkpoint [--key <checkpoint-key.json>] [--policy <trust-policy.json>] [--out <checkpoints.json>] [--notes-out <checkpoint-notes.json>] [--logs <id,id…>]\n${SETTINGS_HELP}`;

function loadInputs(keyFile: string, policyFile: string): { signer: Signer; policy: TrustPolicy } | string {
  let signer: Signer;
  try {
    signer = signerFromKeyPair(parseSigningKey(readFileSync(keyFile, 'utf8'), keyFile));
  } catch (e) {
    return `cannot use the checkpoint key ${keyFile}: ${(e as Error).message}`;
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(policyFile));
  } catch (e) {
    return `cannot read the trust policy ${policyFile}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  const policy = readTrustPolicy(bytes);
  if (!policy.ok) return `${policyFile}: ${policy.error.detail}`;
  return { signer, policy: policy.value };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { ...SETTING_FLAGS, ...flagTable(['key', 'policy', 'out', 'notes-out', 'logs']) },
    USAGE,
  );
  const inputs = loadInputs(
    typeof values.key === 'string' ? values.key : localPaths().checkpointKey,
    typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy,
  );
  if (typeof inputs === 'string') return fail(io, 'checkpoint', inputs, EXIT.FAILED);
  return onStack(io, 'checkpoint', values, async (stack) => {
    const { settings } = stack;
    const logIds =
      typeof values.logs === 'string' ? values.logs.split(',').filter(Boolean) : await stack.store.listLogs();
    // The archive cross-check first: no log is signed over an open omission (ADR 0457).
    const archive = await archiveCheckOf(stack);
    const r = await runCheckpoints({
      store: stack.store,
      signer: inputs.signer,
      policy: inputs.policy,
      logIds,
      origin: { environment: settings.stage, table: settings.ledgerTable },
      time: rfc3339Now(),
      ...('missing' in archive ? {} : { omissions: archive.findings }),
    });
    const out = typeof values.out === 'string' ? values.out : localPaths().checkpoints;
    writeFileSync(out, r.export);
    // Notes go beside the checkpoint export unless named: <out>.notes.json, or the local stack's notes file.
    const notesOut =
      typeof values['notes-out'] === 'string'
        ? values['notes-out']
        : typeof values.out === 'string'
          ? values.out.replace(/(\.json)?$/, '.notes.json')
          : localPaths().checkpointNotes;
    if (r.notes !== null) writeFileSync(notesOut, r.notes);
    for (const c of r.checkpoints)
      if (c.status !== 'refused')
        io.stdout(
          `${terminalText(`${c.logId}  tree size ${c.treeSize}${c.status === 'written' ? '' : '  (already checkpointed)'}`)}\n`,
        );
    // Log ids and refusal details are read from the table: terminal text.
    for (const c of r.refused) io.stderr(`docket checkpoint: ${terminalText(describeRefusal(c))}\n`);
    io.stderr(`checkpoint export written to ${out}${r.notes === null ? '' : `, checkpoint notes to ${notesOut}`}\n`);
    return r.refused.length > 0 ? EXIT.FAILED : EXIT.OK;
  });
}
