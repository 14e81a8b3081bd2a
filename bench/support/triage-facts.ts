/**
 * Seeded facts and evidence documents for RFC 0006's triage pack (examples/data-request-intake-triage.json): every
 * member sometimes absent, so every §8 path (and unknown) is exercised. One generator for the evaluate and batch
 * benches, so the whole-process batch rate and the in-process rate are measured on the same documents.
 */
const enc = new TextEncoder();

/** One facts document; `r` is a seeded PRNG (support/seeded-prng.ts). */
export function triageFacts(r: () => number): Uint8Array {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T>(xs: readonly T[]): T | undefined => (r() < 0.15 ? undefined : pick(xs));
  return enc.encode(
    JSON.stringify({
      request: {
        id: `req-${Math.floor(r() * 1e9)}`,
        type: pick(['data-access', 'data-access', 'data-access', 'data-access', 'media-inquiry']),
        completeness: maybe(['complete', 'complete', 'incomplete', 'partial']),
        appropriateness: maybe(['pass', 'pass', 'fail', 'borderline']),
        embargoedInformationToUnauthorizedRecipients: maybe([false, false, false, true]),
        recordCount: maybe(['12', '99999.99', '100000', '2500000', '731.5']),
        specialCategory: maybe(['none', 'none', 'health', 'genetic']),
        purpose: maybe(['research', 'teaching', 'commercial-resale']),
        dataClassification: maybe(['open', 'restricted', 'confidential']),
        legalHold: maybe([false, false, false, true]),
        programme: maybe([{ preApproved: true, name: 'cohort' }, { preApproved: false }, {}]),
        requester: {
          name: `Researcher ${Math.floor(r() * 1000)}`,
          unit: pick(['epidemiology', 'economics', 'physics']),
        },
      },
    }),
  );
}

/** The six evidence documents the benches cycle through (document i uses TRIAGE_EVIDENCE[i % 6]). */
export const TRIAGE_EVIDENCE: readonly Uint8Array[] = [
  '{"intake-form":"present","sponsor-endorsement":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present","data-management-plan":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"absent"}',
  '{"intake-form":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present","data-management-plan":"absent"}',
].map((s) => enc.encode(s));
