/**
 * Maps ajv errors to stable structural diagnostics (§3.2), each with an RFC 6901 pointer. The mapping reads the
 * error keyword, its params and the instance location, never ajv's message text, so codes do not drift with ajv.
 */
import type { ErrorObject } from 'ajv';
import type { Diagnostic } from './types.js';
import { PackCodes } from './codes.js';
import { childPointer } from './pointer.js';

const LOCAL_ID_PATTERN = '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$';
const DECIMAL_PATTERN = '^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$';
const VERSION_PATTERN = '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$';
const POINTER_PATTERN = '^(?:/(?:[^~/]|~0|~1)*)*$';
const EXTENSION_PATTERN = '^(?!org\\.judgmentpack\\.)[a-z][a-z0-9]*(?:\\.[a-z][a-z0-9-]*)+$';

const CONDITION_OPS = ['literal', 'all', 'any', 'not', 'fact', 'evidence-present'];

function structural(code: string, pointer: string, message: string, extra?: Record<string, unknown>): Diagnostic {
  return { code, severity: 'error', pointer, message, ...extra };
}

/** The schema's patterns, each with its own code and message (§5, §2.2, §7.4, §9); any other is SCHEMA_PATTERN. */
const PATTERN_CODES: Record<string, [string, string]> = {
  [LOCAL_ID_PATTERN]: [PackCodes.SCHEMA_LOCAL_ID, `a local identifier must match ${LOCAL_ID_PATTERN} (§5)`],
  [DECIMAL_PATTERN]: [
    PackCodes.SCHEMA_DECIMAL,
    'the operand of an ordered comparison must be a string in the §2.2 decimal grammar (no exponent, plus sign or leading zeroes)',
  ],
  [VERSION_PATTERN]: [PackCodes.SCHEMA_VERSION, 'version must be MAJOR.MINOR.PATCH without leading zeroes'],
  [POINTER_PATTERN]: [PackCodes.SCHEMA_POINTER, 'fact.path must be an RFC 6901 JSON Pointer (§7.4)'],
  [EXTENSION_PATTERN]: [
    PackCodes.SCHEMA_EXTENSION_NAME,
    'an extension name must be reverse-domain and must not use the reserved org.judgmentpack. prefix (§9)',
  ],
};

const FORMAT_CODES: Record<string, [string, string]> = {
  uri: [PackCodes.SCHEMA_FORMAT_URI, 'must be an absolute URI (RFC 3986; §3.2)'],
  date: [PackCodes.SCHEMA_FORMAT_DATE, 'must be an RFC 3339 full-date (§3.2)'],
  'date-time': [PackCodes.SCHEMA_FORMAT_DATE_TIME, 'must be an RFC 3339 date-time (§3.2)'],
};

/** `instance` is the plain document, used only to phrase the escalation one-of diagnostic exactly. */
export function mapSchemaErrors(errors: readonly ErrorObject[], instance: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const push = (d: Diagnostic): void => {
    const key = `${d.code}\u0000${d.pointer ?? ''}\u0000${String(d['member'] ?? '')}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(d);
  };
  for (const e of errors) {
    const d = mapOne(e, instance);
    if (d !== undefined) push(d);
  }
  return out;
}

function mapOne(e: ErrorObject, instance: unknown): Diagnostic | undefined {
  const at = e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined; // the failing then/name errors are reported themselves
    case 'required':
      if (p['missingProperty'] === 'op' && isConditionError(e)) {
        return structural(
          PackCodes.SCHEMA_CONDITION_OP,
          at,
          `a condition needs op, one of ${CONDITION_OPS.join(', ')}`,
        );
      }
      if (
        at === '/escalation' &&
        (p['missingProperty'] === 'target' || p['missingProperty'] === 'routes') &&
        /oneOf/.test(e.schemaPath)
      ) {
        return undefined; // reported by the oneOf diagnostic below
      }
      return structural(PackCodes.SCHEMA_REQUIRED, at, `missing required member "${String(p['missingProperty'])}"`, {
        member: p['missingProperty'],
      });
    case 'additionalProperties':
      return structural(
        PackCodes.SCHEMA_UNKNOWN_MEMBER,
        childPointer(at, String(p['additionalProperty'])),
        `member "${String(p['additionalProperty'])}" is not defined for this object (§4)`,
        { member: p['additionalProperty'] },
      );
    case 'type':
      return structural(PackCodes.SCHEMA_TYPE, at, `must be of JSON type ${String(p['type'])}`, {
        expected: p['type'],
      });
    case 'enum':
      if (isConditionOpEnum(e)) {
        const allowed = p['allowedValues'] as string[];
        // RFC 0008 "Nesting": only the draft grammar's innermost tier omits the aggregates it otherwise lists.
        const tooDeep = at.includes('/where/') && !allowed.includes('exists');
        return structural(
          PackCodes.SCHEMA_CONDITION_OP,
          at,
          `op must be one of ${allowed.join(', ')}` +
            (tooDeep ? '; an aggregate here would exceed the maximum aggregate depth of two (RFC 0008)' : ''),
        );
      }
      return structural(PackCodes.SCHEMA_ENUM, at, `must be one of ${JSON.stringify(p['allowedValues'])}`, {
        allowed: p['allowedValues'],
      });
    case 'const':
      return structural(PackCodes.SCHEMA_CONST, at, `must be ${JSON.stringify(p['allowedValue'])}`, {
        allowed: p['allowedValue'],
      });
    case 'minLength':
      return structural(PackCodes.SCHEMA_EMPTY_STRING, at, 'must be a non-empty string');
    case 'minItems':
      return structural(PackCodes.SCHEMA_TOO_FEW_ITEMS, at, `must have at least ${String(p['limit'])} item(s)`, {
        limit: p['limit'],
      });
    case 'maxItems':
      return structural(PackCodes.SCHEMA_TOO_MANY_ITEMS, at, `must have at most ${String(p['limit'])} item(s)`, {
        limit: p['limit'],
      });
    case 'uniqueItems':
      return structural(
        PackCodes.SCHEMA_DUPLICATE_ITEMS,
        childPointer(at, Number(p['i'])),
        `items ${String(p['j'])} and ${String(p['i'])} are identical; the array must not repeat an item`,
        { duplicateOf: childPointer(at, Number(p['j'])) },
      );
    case 'pattern': {
      const name = (e as ErrorObject & { propertyName?: string }).propertyName;
      const pattern = String(p['pattern']);
      const [code, message] = PATTERN_CODES[pattern] ?? [PackCodes.SCHEMA_PATTERN, `must match the pattern ${pattern}`];
      return structural(code, name !== undefined ? childPointer(at, name) : at, message);
    }
    case 'format': {
      const [code, message] = FORMAT_CODES[String(p['format'])] ?? [
        PackCodes.SCHEMA_OTHER,
        `must match format ${String(p['format'])}`,
      ];
      return structural(code, at, message, { format: p['format'] });
    }
    case 'not':
      if (/^\/exceptions\/\d+$/.test(at)) {
        return structural(
          PackCodes.SCHEMA_EXCEPTION_EFFECT_MEMBERS,
          at,
          'suppress-rule takes targetRule and no outcome; force-outcome takes outcome and no targetRule; escalate takes neither (§6.6)',
        );
      }
      break;
    case 'oneOf':
      if (at === '/escalation') return escalationOneOf(instance);
      break;
    case 'anyOf':
      return undefined; // inside `not` (exception effect members): the `not` finding is reported
  }
  return structural(PackCodes.SCHEMA_OTHER, at, `schema keyword ${e.keyword} failed`, { keyword: e.keyword });
}

function escalationOneOf(instance: unknown): Diagnostic | undefined {
  const esc = (instance as Record<string, unknown> | null)?.['escalation'];
  // On a non-object, `required` holds vacuously in both branches so oneOf fails too; the type error says it all.
  if (esc === null || typeof esc !== 'object' || Array.isArray(esc)) return undefined;
  const both = Object.hasOwn(esc, 'target') && Object.hasOwn(esc, 'routes');
  return both
    ? structural(
        PackCodes.SCHEMA_ESCALATION_TARGET_AND_ROUTES,
        '/escalation',
        'an escalation declares exactly one of target and routes, not both (§6.7)',
      )
    : structural(
        PackCodes.SCHEMA_ESCALATION_NO_TARGET_OR_ROUTES,
        '/escalation',
        'an escalation declares exactly one of target and routes (§6.7)',
      );
}

/** The discriminated condition form puts `required: ["op"]` at the root of the condition def. */
function isConditionError(e: ErrorObject): boolean {
  return (
    e.schemaPath === '#/required' &&
    /(?:\/when|\/applicability|\/conditions\/\d+|\/condition|\/where)$/.test(e.instancePath)
  );
}

function isConditionOpEnum(e: ErrorObject): boolean {
  const allowed = (e.params as { allowedValues?: unknown }).allowedValues;
  return Array.isArray(allowed) && allowed.includes('evidence-present') && e.instancePath.endsWith('/op');
}
