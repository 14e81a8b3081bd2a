/**
 * core/ledger/witness: the C2SP witness: cosignature lines, the tlog-witness add-checkpoint exchange (client and
 * witness), its state, and the witness policy an auditor requires cosignatures by (ADRs 0131, 0301).
 */
export { readWitnessState, emptyWitnessState, serializeWitnessState, type WitnessState } from './witness-state.js';
export { type AddCheckpointResponse } from './add-checkpoint.js';
export { WitnessService } from './witness-service.js';
export { runWitness, type WitnessRunResult } from './witness-run.js';
export { witnessPolicyDocument, witnessVkey, readWitnessPolicy, type WitnessPolicy } from './witness-policy.js';
export { type WitnessKey } from './cosignature.js';
export { judgeNotes, newestClaim, type NewestClaim } from './witness-evidence.js';
