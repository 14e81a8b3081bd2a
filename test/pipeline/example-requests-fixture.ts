/**
 * Requests for the pipeline tests, built from the example packs and request files: a triage request (routes) and a
 * vendor request (a target-only pack, whose handoff's destination is read from the pack, §8.3).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';

export const ex = (p: string): string => readFileSync(new URL(`../../examples/${p}`, import.meta.url), 'utf8');
export const hex = (b: string): string => createHash('sha256').update(b).digest('hex');
export const VENDOR = ex('vendor-onboarding-target.json');
export const TRIAGE = ex('data-request-intake-triage.json');

export const request = (id: string, pack: string, facts: string, evidence?: string): string =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${hex(pack)}","facts":${facts}${evidence ? `,"evidence":${evidence}` : ''}}`;

export const triage = (id: string): string =>
  request(
    id,
    TRIAGE,
    ex('requests/triage-complete-appropriate.facts.json').trim(),
    ex('requests/triage-instance-7b.evidence.json').trim(),
  );

export const vendor = (id: string): string =>
  request(
    id,
    VENDOR,
    ex('requests/vendor-no-match.facts.json').trim(),
    ex('requests/vendor-certificate.evidence.json').trim(),
  );
