/**
 * Checkpoints every log of a stack under one trust policy, then runs `docket verify` over its live table under
 * another: how the draft-feature tests show a policy that does not permit a recorded feature reports it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as verify } from '../../cli/commands/verify.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import type { E2eWorld } from './harness.js';

export interface VerifyUnder {
  readonly exitCode: number;
  readonly verdict: { ok: boolean; findings: { code: string; seq?: number }[] };
}

/** `stage` names the stack's stage (its table and queues); files are written to `dir`. */
export async function verifyUnder(
  w: E2eWorld,
  o: { readonly stage: string; readonly dir: string; readonly checkpointPolicy: string; readonly policy: string },
): Promise<VerifyUnder> {
  const parsed = readTrustPolicy(new TextEncoder().encode(o.checkpointPolicy));
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const cp = await runCheckpoints({
    store: w.store,
    signer: signerFromKeyPair(w.checkpointKeys),
    policy: parsed.value,
    logIds: JSON.parse(w.env.LOG_IDS!) as string[],
    origin: { environment: o.stage, table: w.env.LEDGER_TABLE! },
    time: rfc3339Now(),
  });
  expect(cp.refused).toEqual([]);
  writeFileSync(join(o.dir, 'checkpoints.json'), cp.export);
  writeFileSync(join(o.dir, 'policy.json'), o.policy);
  const io = memoryIo();
  const flags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', o.stage];
  const files = ['--policy', join(o.dir, 'policy.json'), '--checkpoints', join(o.dir, 'checkpoints.json')];
  const exitCode = await verify([...flags, ...files], io);
  return { exitCode, verdict: JSON.parse(io.out()) as VerifyUnder['verdict'] };
}
