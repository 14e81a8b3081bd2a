/**
 * The local stack's own witness (what `npm start` runs once at the end): a witness key and a witness policy under
 * .docket/local/ (created on first use), then one `docket witness` run over the local ledger. A freshly started
 * local stack holds a new, empty ledger under the same origins, so the local witness forgets what it saw of the
 * previous one (its state file is removed) — a long-lived witness never does that.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { witnessPolicyDocument } from '../../core/ledger/index.js';
import { localPaths } from '../../stack/local-files.js';
import type { CliIo } from '../io.js';
import { newWitnessKey, parseWitnessKey, writeWitnessKey } from './witness-key-file.js';

export const LOCAL_WITNESS_NAME = 'localhost/docket-witness';

/** Runs the local witness once; returns the verify flags that require its cosignature (none if it refused). */
export async function runLocalWitness(io: CliIo, o: { readonly freshLedger: boolean }): Promise<string[]> {
  const paths = localPaths();
  if (!existsSync(paths.witnessKey)) writeWitnessKey(paths.witnessKey, newWitnessKey(LOCAL_WITNESS_NAME));
  const key = parseWitnessKey(readFileSync(paths.witnessKey, 'utf8'), paths.witnessKey);
  writeFileSync(
    paths.witnessPolicy,
    witnessPolicyDocument({
      quorum: 1,
      maxAgeSeconds: 86_400,
      witnesses: [{ name: key.name, publicKey: key.publicKey }],
    }),
  );
  if (o.freshLedger) rmSync(paths.witnessState, { force: true });
  io.stdout(`\n== docket witness (once, as ${key.name}; state ${paths.witnessState})\n`);
  const { run } = await import('../commands/witness.js');
  const code = await run([], io);
  const { loadWitnessState } = await import('./state-file.js');
  const first = [...loadWitnessState(paths.witnessState).values()].find((l) => l.treeSize > 0);
  if (first !== undefined) io.stdout(`\ncosigned checkpoint (C2SP signed note):\n${first.note}`);
  return code === 0 ? ['--witnesses', paths.witnessPolicy] : [];
}
