/**
 * §11: readers implementing several versions dispatch on the complete selector and keep each older contract.
 * Each supported selector names its carrier options, its schema and whether it knows §4.1 profiles.
 * "0.3.0" is the selector the 0.3.0 text and its seed write; "0.3.0-draft" is never written by them and is refused
 * like any other unknown selector (docs/adr/0020-spec-version-dispatch.md).
 */
import type { Profile, SpecVersion } from './types.js';

export interface SpecVersionContract {
  readonly specVersion: SpecVersion;
  /** 0.2.0-draft's published carrier accepted a lone surrogate escape (§11 "Carrier"); 0.3.0 refuses it (§2.1). */
  readonly allowLoneSurrogates: boolean;
  /** Whether the version defines the §4.1 `profile` member and routed escalations. */
  readonly hasProfiles: boolean;
}

export const SPEC_VERSION_CONTRACTS: ReadonlyMap<string, SpecVersionContract> = new Map<string, SpecVersionContract>([
  ['0.3.0', Object.freeze({ specVersion: '0.3.0', allowLoneSurrogates: false, hasProfiles: true })],
  ['0.2.0-draft', Object.freeze({ specVersion: '0.2.0-draft', allowLoneSurrogates: true, hasProfiles: false })],
]);

export const SUPPORTED_SPEC_VERSIONS: readonly SpecVersion[] = Object.freeze(['0.3.0', '0.2.0-draft'] as SpecVersion[]);

/** §4.1: this reader supports both profiles, and so validates extended documents with the extended ceilings. */
export const SUPPORTED_PROFILES: readonly Profile[] = Object.freeze(['base', 'extended'] as Profile[]);

/** §4.1 known profile names (a known name may still be unsupported by a configured reader). */
export const KNOWN_PROFILES: readonly Profile[] = SUPPORTED_PROFILES;

/** Lookup by own key only: a selector such as "__proto__" or "constructor" is just an unknown string. */
export function contractFor(selector: string): SpecVersionContract | undefined {
  return SPEC_VERSION_CONTRACTS.get(selector);
}
