/**
 * A small, strict evaluator of the template's IAM and resource policies for the questions the tests ask ("may this
 * principal PutItem this partition key on that table?"). It understands only the condition operators the stack uses
 * and throws on anything else, so a policy change it cannot judge fails the tests instead of passing them.
 */
import { namesResource, policySources, resolve, roleStatements, type Cfn, type Statement } from './template.js';

export interface Request {
  /** A role's logical id, or a literal ARN for principals outside the stack (an administrator, the root user). */
  readonly principal: string;
  readonly action: string;
  /** Logical id of the resource acted on. */
  readonly resource: string;
  /** dynamodb:LeadingKeys of the request (absent for Scan). */
  readonly leadingKey?: string;
  /** dynamodb:Attributes of the request: the item's top-level attribute names (absent: not asked about). */
  readonly attributes?: readonly string[];
}

export const ADMIN_ARN = 'arn:aws:iam::111122223333:role/Administrator';
export const ROOT_ARN = 'arn:aws:iam::111122223333:root';

const glob = (pattern: string, value: string): boolean =>
  new RegExp(
    '^' +
      pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
    'i',
  ).test(value);

function principalArn(t: Cfn, principal: string): string {
  return t.Resources[principal] !== undefined ? `${principal}.Arn` : principal;
}

function conditionHolds(t: Cfn, cond: Cfn | undefined, req: Request): boolean {
  if (cond === undefined) return true;
  for (const [op, entries] of Object.entries<Cfn>(cond)) {
    for (const [key, raw] of Object.entries<unknown>(entries)) {
      const values = (Array.isArray(raw) ? raw : [raw]).map((v) => resolve(t, v));
      let holds: boolean;
      if (key === 'aws:PrincipalArn' && (op === 'ArnEquals' || op === 'ArnNotEquals')) {
        const inList = values.includes(principalArn(t, req.principal));
        holds = op === 'ArnEquals' ? inList : !inList;
      } else if (key === 'dynamodb:LeadingKeys' && op === 'ForAnyValue:StringNotLike') {
        holds = req.leadingKey !== undefined && !values.some((p) => glob(p, req.leadingKey!));
      } else if (key === 'dynamodb:LeadingKeys' && op === 'ForAllValues:StringLike') {
        holds = req.leadingKey === undefined || values.some((p) => glob(p, req.leadingKey!));
      } else if (key === 'dynamodb:Attributes' && op === 'ForAllValues:StringEquals') {
        holds = req.attributes === undefined || req.attributes.every((a) => values.includes(a));
      } else if (key === 'dynamodb:Attributes' && op === 'ForAnyValue:StringNotEquals') {
        holds = req.attributes !== undefined && req.attributes.some((a) => !values.includes(a));
      } else if (key === 'aws:SecureTransport' && op === 'Bool') {
        holds = values.includes('true'); // every modelled request travels over TLS
      } else if (key === 'kms:ViaService' && op === 'StringEquals') {
        holds = true; // not asked about here
      } else {
        throw new Error(`policy-sim does not understand condition ${op} on ${key}`);
      }
      if (!holds) return false;
    }
  }
  return true;
}

function statementApplies(t: Cfn, s: Statement, req: Request): boolean {
  return (
    s.Action.some((a) => glob(a, req.action)) &&
    s.Resource.some((r) => r === '*' || namesResource(t, r, req.resource)) &&
    conditionHolds(t, s.Condition, req)
  );
}

function principalMatches(t: Cfn, principal: unknown, req: Request): boolean {
  const p = principal as Cfn | undefined;
  if (p === undefined) return false;
  const aws = p.AWS;
  if (aws === undefined) return false;
  const list = (Array.isArray(aws) ? aws : [aws]).map((v) => resolve(t, v));
  return list.some((v) => v === '*' || v === principalArn(t, req.principal));
}

/** Resource-policy (and key-policy) statements that deny this request. */
export function resourceDenials(t: Cfn, req: Request): Statement[] {
  return policySources(t)
    .filter((s) => (s.kind === 'resource' || s.kind === 'key') && s.protects === req.resource)
    .flatMap((s) => s.statements)
    .filter((s) => s.Effect === 'Deny' && principalMatches(t, s.Principal, req) && statementApplies(t, s, req));
}

/** Whether the role's identity policies allow the request (explicit identity denies count too). */
export function identityAllows(t: Cfn, roleId: string, req: Omit<Request, 'principal'>): boolean {
  const r = { ...req, principal: roleId };
  const statements = roleStatements(t, roleId);
  if (statements.some((s) => s.Effect === 'Deny' && statementApplies(t, s, r))) return false;
  return statements.some((s) => s.Effect === 'Allow' && statementApplies(t, s, r));
}

/**
 * The decision for one request. Principals outside the stack are modelled with identity policies that allow
 * everything (an administrator's `*:*`), so only the resource policy stands between them and the data.
 */
export function allowed(t: Cfn, req: Request): boolean {
  const inStack = t.Resources[req.principal] !== undefined;
  const identity = inStack ? identityAllows(t, req.principal, req) : true;
  return identity && resourceDenials(t, req).length === 0;
}
