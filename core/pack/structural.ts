/**
 * Structural conformance (§3.2) of a carrier-conforming document whose selector picked `contract`:
 * §4.1 profile negotiation first, then the version's JSON Schema under the selected profile's ceilings, then the
 * schema-adjacent checks.
 */
import type { JsonObject } from '../carrier/json-value.js';
import type { Diagnostic, Profile } from './types.js';
import { type SpecVersionContract, KNOWN_PROFILES } from './spec-versions.js';
import { PackCodes } from './codes.js';
import { validatorFor } from './schemas.js';
import { mapSchemaErrors } from './schema-diagnostics.js';
import { checkRouteTriggers } from './route-triggers.js';
import { checkUniqueItems } from './unique-items.js';

export type Negotiation =
  { readonly ok: true; readonly profile: Profile } | { readonly ok: false; readonly diagnostic: Diagnostic };

/**
 * §4.1 profile negotiation. Absent → implicit base. An unknown name, a non-string, an empty string or null is a
 * structural refusal with the schema's own diagnostic for `profile` (its enum). A known profile outside the
 * supported set yields exactly one diagnostic, `profile-unsupported`, naming the profile, with a fixed message that
 * carries nothing else derived from the input. The same rule applies to implicit base.
 * A version without profiles (0.2.0-draft) is implicitly base; a `profile` member there is left to its schema,
 * which refuses it as an unknown member (§11: newer-only shapes are not accepted by the historical schema).
 */
export function negotiateProfile(
  root: JsonObject,
  contract: SpecVersionContract,
  supported: ReadonlySet<Profile>,
): Negotiation {
  let profile: Profile = 'base';
  let explicit = false;
  const declared = contract.hasProfiles ? root.members.get('profile') : undefined;
  if (declared !== undefined) {
    if (declared.kind !== 'string' || !(KNOWN_PROFILES as readonly string[]).includes(declared.value)) {
      return {
        ok: false,
        diagnostic: {
          code: PackCodes.SCHEMA_ENUM,
          severity: 'error',
          pointer: '/profile',
          message: `must be one of ${JSON.stringify(KNOWN_PROFILES)}`,
          allowed: [...KNOWN_PROFILES],
        },
      };
    }
    profile = declared.value as Profile;
    explicit = true;
  }
  if (!supported.has(profile)) {
    return {
      ok: false,
      diagnostic: {
        code: PackCodes.PROFILE_UNSUPPORTED,
        profile,
        severity: 'error',
        ...(explicit ? { pointer: '/profile' } : {}),
        message: 'the document profile is not supported by this reader (§4.1)',
      },
    };
  }
  return { ok: true, profile };
}

/** Schema validation under the negotiated profile, plus the schema-adjacent checks. */
export function validateStructure(
  plain: unknown,
  contract: SpecVersionContract,
  profile: Profile,
  quantifiers = false,
): Diagnostic[] {
  // RFC 0008 is a draft against 0.3.0: the historical 0.2.0-draft contract never gains its grammar (ADR 0190), a rule
  // schemaKey applies (ADR 0403).
  const validate = validatorFor(contract.specVersion, profile, quantifiers);
  const diagnostics: Diagnostic[] = [];
  if (!validate(plain)) diagnostics.push(...mapSchemaErrors(validate.errors ?? [], plain));
  diagnostics.push(...checkUniqueItems(plain));
  if (contract.hasProfiles) diagnostics.push(...checkRouteTriggers(plain));
  return diagnostics;
}
