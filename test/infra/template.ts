/** Helpers to read a synthesized Docket template in tests: resources by type, intrinsic resolution, policy documents. */
import { synthesizeTemplate } from '../../infra/synth.js';
import { resolveConfig, type DocketConfig } from '../../infra/config.js';

export type Cfn = Record<string, any>;

const cache = new Map<string, Cfn>();

/** The value, and everything it holds, made read-only: a test that changes a shared template throws instead. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One synthesis per distinct configuration per worker (bundling and CloudFormation validation off): the unit lane's
 * files share their worker's modules (docs/adr/0495-unit-lane-shares-module-graphs.md), so every infra test file of a
 * worker reads the same template, frozen so that no test can change what another reads.
 */
export function template(config: Partial<DocketConfig> = {}): Cfn {
  // Keyed by the configuration as resolved (infra/synth.ts synthesizes from nothing else): `{}` and `{ stage: 'dev' }`
  // are one template.
  const key = JSON.stringify(resolveConfig(config));
  let t = cache.get(key);
  if (t === undefined) {
    t = deepFreeze(synthesizeTemplate(config));
    cache.set(key, t);
  }
  return t;
}

export function resourcesOfType(t: Cfn, type: string): Array<[string, Cfn]> {
  return Object.entries<Cfn>(t.Resources).filter(([, r]) => r.Type === type);
}

/** The one resource of a type (throws when there are none or several). */
export function only(t: Cfn, type: string): [string, Cfn] {
  const all = resourcesOfType(t, type);
  if (all.length !== 1) throw new Error(`expected exactly one ${type}, found ${all.length}`);
  return all[0]!;
}

export function logicalIdWhere(t: Cfn, type: string, pred: (props: Cfn) => boolean): string {
  const found = resourcesOfType(t, type).filter(([, r]) => pred(r.Properties ?? {}));
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0]![0];
}

export function tableId(t: Cfn, name: string): string {
  return logicalIdWhere(t, 'AWS::DynamoDB::Table', (p) => p.TableName === name);
}

export function queueId(t: Cfn, name: string): string {
  return logicalIdWhere(t, 'AWS::SQS::Queue', (p) => p.QueueName === name);
}

export function functionId(t: Cfn, name: string): string {
  return logicalIdWhere(t, 'AWS::Lambda::Function', (p) => p.FunctionName === name);
}

/** The logical id of a function's execution role. */
export function roleOfFunction(t: Cfn, functionName: string): string {
  const fn = t.Resources[functionId(t, functionName)];
  const role = fn.Properties.Role;
  if (!Array.isArray(role?.['Fn::GetAtt'])) throw new Error('function role is not a GetAtt');
  return role['Fn::GetAtt'][0] as string;
}

/**
 * Resolve intrinsics to strings for inspection: Ref of a queue → "url:<QueueName>", Ref of a table or other
 * resource → "ref:<logicalId>", GetAtt → "<logicalId>.<attr>", pseudo parameters → "<AWS::X>", Fn::Join joined.
 */
export function resolve(t: Cfn, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') {
    const o = v as Cfn;
    if ('Ref' in o) {
      const id = o.Ref as string;
      if (id.startsWith('AWS::')) return `<${id}>`;
      const r = t.Resources[id];
      if (r?.Type === 'AWS::SQS::Queue') return `url:${r.Properties.QueueName}`;
      return `ref:${id}`;
    }
    if ('Fn::GetAtt' in o) return `${o['Fn::GetAtt'][0]}.${o['Fn::GetAtt'][1]}`;
    if ('Fn::Join' in o) {
      const [sep, parts] = o['Fn::Join'] as [string, unknown[]];
      return parts.map((p) => resolve(t, p)).join(sep);
    }
  }
  throw new Error(`cannot resolve ${JSON.stringify(v)}`);
}

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: unknown[];
  Principal?: unknown;
  Condition?: Cfn;
  Sid?: string;
}

export interface PolicySource {
  /** 'identity': IAM policy attached to roles; 'resource': a resource's own policy; 'key': a KMS key policy. */
  readonly kind: 'identity' | 'resource' | 'key';
  readonly logicalId: string;
  /** Roles an identity policy is attached to (logical ids). */
  readonly roles: string[];
  /** For resource policies: the resource the policy protects (logical id). */
  readonly protects?: string;
  readonly statements: Statement[];
}

const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

function statementsOf(doc: Cfn | undefined): Statement[] {
  return asArray<Cfn>(doc?.Statement).map((s) => ({
    Effect: s.Effect,
    Action: asArray<string>(s.Action),
    Resource: asArray<unknown>(s.Resource),
    Principal: s.Principal,
    Condition: s.Condition,
    Sid: s.Sid,
  }));
}

/** Every policy document in the template, whatever carries it. */
export function policySources(t: Cfn): PolicySource[] {
  const out: PolicySource[] = [];
  const roleRefs = (p: Cfn) => asArray<Cfn>(p.Roles).map((r) => r.Ref as string);
  for (const [id, r] of Object.entries<Cfn>(t.Resources)) {
    const p = r.Properties ?? {};
    switch (r.Type) {
      case 'AWS::IAM::Policy':
        out.push({ kind: 'identity', logicalId: id, roles: roleRefs(p), statements: statementsOf(p.PolicyDocument) });
        break;
      case 'AWS::IAM::ManagedPolicy':
        out.push({ kind: 'identity', logicalId: id, roles: roleRefs(p), statements: statementsOf(p.PolicyDocument) });
        break;
      case 'AWS::IAM::Role':
        for (const inline of asArray<Cfn>(p.Policies))
          out.push({ kind: 'identity', logicalId: id, roles: [id], statements: statementsOf(inline.PolicyDocument) });
        out.push({
          kind: 'resource',
          logicalId: `${id}#trust`,
          roles: [],
          protects: id,
          statements: statementsOf(p.AssumeRolePolicyDocument),
        });
        break;
      case 'AWS::DynamoDB::Table':
        if (p.ResourcePolicy !== undefined)
          out.push({
            kind: 'resource',
            logicalId: id,
            roles: [],
            protects: id,
            statements: statementsOf(p.ResourcePolicy.PolicyDocument),
          });
        break;
      case 'AWS::KMS::Key':
        out.push({ kind: 'key', logicalId: id, roles: [], protects: id, statements: statementsOf(p.KeyPolicy) });
        break;
      case 'AWS::SecretsManager::ResourcePolicy':
        out.push({
          kind: 'resource',
          logicalId: id,
          roles: [],
          protects: p.SecretId.Ref,
          statements: statementsOf(p.ResourcePolicy),
        });
        break;
      case 'AWS::SQS::QueuePolicy':
        out.push({
          kind: 'resource',
          logicalId: id,
          roles: [],
          protects: asArray<Cfn>(p.Queues)[0]?.Ref,
          statements: statementsOf(p.PolicyDocument),
        });
        break;
      case 'AWS::S3::BucketPolicy':
        out.push({
          kind: 'resource',
          logicalId: id,
          roles: [],
          protects: p.Bucket.Ref,
          statements: statementsOf(p.PolicyDocument),
        });
        break;
      case 'AWS::SNS::TopicPolicy':
        out.push({
          kind: 'resource',
          logicalId: id,
          roles: [],
          protects: asArray<Cfn>(p.Topics)[0]?.Ref,
          statements: statementsOf(p.PolicyDocument),
        });
        break;
      default:
        if (JSON.stringify(p).includes('"Statement"'))
          throw new Error(`policy carrier not understood by the test helper: ${r.Type}`);
    }
  }
  return out;
}

/** Identity statements attached to a role. */
export function roleStatements(t: Cfn, roleId: string): Statement[] {
  return policySources(t)
    .filter((s) => s.kind === 'identity' && s.roles.includes(roleId))
    .flatMap((s) => s.statements);
}

/** Whether a statement resource names this resource (its ARN, or a path under it). */
export function namesResource(t: Cfn, resource: unknown, logicalId: string): boolean {
  const s = JSON.stringify(resource);
  if (s.includes(`"${logicalId}"`)) return true;
  const r = t.Resources[logicalId];
  const name = r?.Properties?.TableName ?? r?.Properties?.QueueName;
  return typeof name === 'string' && s.includes(`/${name}"`);
}
