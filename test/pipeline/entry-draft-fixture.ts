import type { EntryDraft } from '../../core/pipeline/ports.js';
import { BUILD_DIGEST, PACK_DIGEST } from '../ledger/fixtures.js';

/** The smallest entry draft a ledger writer accepts: an admission refusal of `requestId`, request digest `digit`×64. */
export const refusalDraft = (requestId: string, digit = 'a'): EntryDraft =>
  ({
    kind: 'admission-refusal',
    requestId,
    requestDigest: digit.repeat(64),
    correlation: null,
    pack: { digest: PACK_DIGEST },
    specVersion: null,
    factsDigest: null,
    evidenceDigest: null,
    supportedExtensions: [],
    workBudget: null,
    work: 0,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    refusal: { code: 'unknown-pack-digest', message: 'no pack is registered under this digest' },
  }) as unknown as EntryDraft;
