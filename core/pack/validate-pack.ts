/**
 * validatePack: carrier (§2.1) → structural (§3.2; §4.1 profile negotiation first) → semantic (§3.3), then the
 * recommended §3.3.1 overlap lint. `class` names the first failing layer; `pack` is present iff conformant.
 *
 * Selector dispatch (§11, docs/adr/0020-spec-version-dispatch.md): a bounded root scan finds `specVersion` before
 * anything is interpreted, because the selector decides the carrier (0.2.0-draft accepted lone surrogates). A
 * document whose selector cannot be used is still carrier-checked first, with the most permissive carrier of any
 * supported version, so a carrier failure is reported only when no supported contract would accept the bytes; a
 * readable document with a missing, non-string or unknown selector, or a non-object root, is a structural refusal.
 */
import { readJson, resolveLimits, toPlain, type CarrierError } from '../carrier/index.js';
import type { JsonObject, JsonValue } from '../carrier/json-value.js';
import type { Diagnostic, PackValidation, Profile, ValidatePackOptions } from './types.js';
import { PackCodes } from './codes.js';
import { scanRoot } from './root-scan.js';
import { contractFor, SUPPORTED_PROFILES, SUPPORTED_SPEC_VERSIONS, type SpecVersionContract } from './spec-versions.js';
import { negotiateProfile, validateStructure } from './structural.js';
import { checkSemantics } from './semantic.js';
import { checkOverlaps } from './overlap.js';
import { normalizeDraftFeatures } from './draft-features.js';
import { checkVacuousEvery } from './vacuous-every.js';
import { countValues, MAX_PACK_VALUES } from './validation-cost.js';

export function validatePack(bytes: Uint8Array, options: ValidatePackOptions = {}): PackValidation {
  const limits = resolveLimits(options.limits);
  const scan = scanRoot(bytes, limits);
  const selector =
    scan.readable && scan.root === 'object' && scan.specVersion.kind === 'string' ? scan.specVersion.value : undefined;
  let contract = selector === undefined ? undefined : contractFor(selector);

  // Carrier layer: the selected version's carrier, or the most permissive supported one when there is none.
  let read = readJson(bytes, { limits, allowLoneSurrogates: contract?.allowLoneSurrogates ?? true });
  if (!read.ok) return carrierFailure(read.error);
  if (contract === undefined) {
    // Defence in depth: the scan is never stricter than the carrier, but if it ever were, the tree decides.
    const sv = read.value.kind === 'object' ? read.value.members.get('specVersion') : undefined;
    contract = sv?.kind === 'string' ? contractFor(sv.value) : undefined;
    if (contract !== undefined) {
      read = readJson(bytes, { limits, allowLoneSurrogates: contract.allowLoneSurrogates });
      if (!read.ok) return carrierFailure(read.error);
    }
  }
  const root = read.value;
  // §10: a documented limit on the document, like its byte size, refused before anything else reads it (ADR 0202).
  const maxValues = options.maxValues ?? MAX_PACK_VALUES;
  const values = countValues(root, maxValues);
  if (values > maxValues) return refuse('carrier', [validationCostDiagnostic(maxValues)]);
  if (contract === undefined || root.kind !== 'object') return refuse('structural', [selectorDiagnostic(root)]);
  return validateDocument(root, bytes, contract, options);
}

function validateDocument(
  root: JsonObject,
  bytes: Uint8Array,
  contract: SpecVersionContract,
  options: ValidatePackOptions,
): PackValidation {
  const supported = new Set<Profile>(options.supportedProfiles ?? SUPPORTED_PROFILES);
  // §4.1: negotiation is the first structural step; its refusal is the only diagnostic.
  const negotiated = negotiateProfile(root, contract, supported);
  if (!negotiated.ok) return refuse('structural', [negotiated.diagnostic]);

  const features = normalizeDraftFeatures(options.draftFeatures);
  const quantifiers = features.includes('rfc0008-quantifiers');
  const structural = validateStructure(toPlain(root, true), contract, negotiated.profile, quantifiers);
  if (structural.length > 0) return refuse('structural', structural);

  const plain = toPlain(root);
  const semantic = checkSemantics(plain);
  if (semantic.length > 0) return refuse('semantic', semantic);

  const strict = options.strict === true;
  const lint = strict || options.overlapCheck !== false ? checkOverlaps(root, { strict }) : [];
  if (lint.some((d) => d.severity === 'error')) return refuse('semantic', lint);
  // RFC 0008's vacuous-truth advisory, with the lint and only under the opt-in (ADR 0195).
  if (quantifiers && (strict || options.overlapCheck !== false)) lint.push(...checkVacuousEvery(plain));
  return {
    conformant: true,
    class: 'valid',
    diagnostics: lint,
    pack: {
      specVersion: contract.specVersion,
      profile: negotiated.profile,
      document: root,
      plain,
      bytes,
      ...(features.length > 0 ? { draftFeatures: features } : {}),
    },
  };
}

function refuse(cls: 'carrier' | 'structural' | 'semantic', diagnostics: Diagnostic[]): PackValidation {
  return { conformant: false, class: cls, diagnostics };
}

function validationCostDiagnostic(maxValues: number): Diagnostic {
  return {
    code: PackCodes.LIMIT_VALIDATION_COST,
    severity: 'error',
    pointer: '',
    message: `the pack holds more than ${maxValues} JSON values, the documented bound on the cost of validating it (§10; docs/limits.md)`,
    limit: maxValues,
  };
}

function carrierFailure(e: CarrierError): PackValidation {
  return refuse('carrier', [
    { code: e.code, severity: 'error', message: e.message, ...(e.offset !== undefined ? { offset: e.offset } : {}) },
  ]);
}

/** Why a carrier-conforming document has no usable selector (§4 root object, §11 exact selector). */
function selectorDiagnostic(root: JsonValue): Diagnostic {
  if (root.kind !== 'object') {
    return {
      code: PackCodes.ROOT_NOT_OBJECT,
      severity: 'error',
      pointer: '',
      message: `the root must be an object, not ${root.kind} (§4)`,
    };
  }
  const sv = root.members.get('specVersion');
  const supported = `supported: ${SUPPORTED_SPEC_VERSIONS.map((v) => JSON.stringify(v)).join(', ')}`;
  if (sv === undefined) {
    return {
      code: PackCodes.SPEC_VERSION_MISSING,
      severity: 'error',
      pointer: '',
      message: `missing required member "specVersion" (§11; ${supported})`,
      member: 'specVersion',
    };
  }
  if (sv.kind !== 'string') {
    return {
      code: PackCodes.SPEC_VERSION_NOT_STRING,
      severity: 'error',
      pointer: '/specVersion',
      message: `specVersion must be a string (§11; ${supported})`,
    };
  }
  return {
    code: PackCodes.SPEC_VERSION_UNSUPPORTED,
    severity: 'error',
    pointer: '/specVersion',
    message: `specVersion ${JSON.stringify(sv.value)} is not supported; the selector is exact (§11; ${supported})`,
    specVersion: sv.value,
    supported: [...SUPPORTED_SPEC_VERSIONS],
  };
}
