/**
 * The append-only ledger table (docs/deploy.md; item families in core/ledger/store/store.ts). On-demand, point-in-time
 * recovery, deletion protection, RETAIN, customer-managed KMS key, TTL never enabled. Append-only is enforced twice:
 * the table's resource policy denies every rewrite to every principal and every PutItem except the three writer roles
 * (evaluate, checkpoint and deliver, docs/adr/0404-delivery-stage.md), and the identity policies of those roles grant
 * nothing but single-item reads and PutItem on their own key families.
 * What this does and does not stop: docs/adr/0080-ledger-append-only-enforcement.md.
 */
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { denyToEveryone } from './deny-except.js';
import { durableTableProps, tableArnLiteral, type DocketTableProps } from './durable-table.js';
import { grantKeyVia } from './key-grants.js';

/** Partition-key prefixes of the item families (core/ledger/store/store.ts). */
export const LEDGER_KEY_PREFIX = {
  entry: 'log#',
  request: 'req#',
  checkpoint: 'ckpt#',
  // Checkpoint notes and witness cosignatures (core/ledger/store/note-store.ts; docs/adr/0131-witness-items-and-exports.md).
  note: 'note#',
  cosignature: 'cosig#',
  // Batch markers: where a delivery job's entries landed (docs/adr/0498-batch-markers-replace-positions.md).
  marker: 'mark#',
} as const;

/** The attributes of a position item (adapters/dynamodb-ledger-store.ts `putPositionIfAbsent`), and nothing else. */
export const POSITION_ATTRIBUTES = ['pk', 'sk', 'logId', 'seq'] as const;

/** The attributes of a batch marker item (adapters/ledger-marker-item.ts), and nothing else. */
export const MARKER_ATTRIBUTES = ['pk', 'sk', 'seqs', 'requestIds'] as const;

/** Every data-plane action that changes or removes an existing item, or could (TTL): denied to everyone. */
export const LEDGER_REWRITE_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  // BatchWriteItem carries deletes and unconditional puts; appends are single conditional PutItem calls.
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:PartiQLInsert',
  // TTL would delete entries behind everyone's back; it is never enabled.
  'dynamodb:UpdateTimeToLive',
  'dynamodb:DeleteTable',
] as const;

export class Ledger extends Construct {
  readonly table: dynamodb.Table;
  private readonly key: kms.IKey;
  private readonly physicalName: string;

  constructor(scope: Construct, id: string, props: DocketTableProps) {
    super(scope, id);
    this.key = props.key;
    this.physicalName = props.tableName;
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.NUMBER },
      ...durableTableProps(props.key, props.config.pitrRecoveryDays),
      // No timeToLiveAttribute, ever: a TTL deletion would remove signed entries (see LEDGER_REWRITE_ACTIONS).
    });
    this.table.addToResourcePolicy(
      denyToEveryone('DenyEveryRewriteToEveryone', [...LEDGER_REWRITE_ACTIONS], this.tableArnLiteral()),
    );
  }

  /** For the table's own resource policy (see durable-table.ts). */
  tableArnLiteral(): string {
    return tableArnLiteral(this, this.physicalName);
  }

  /**
   * The evaluate function: read and conditionally create entry, claim and position items (log#, req#), and read batch
   * markers (mark#: a redelivered request's entry is found from them, ADR 0498).
   */
  grantAppend(role: iam.IRole): void {
    this.grantFamilies(
      role,
      ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
      [LEDGER_KEY_PREFIX.entry, LEDGER_KEY_PREFIX.request],
    );
    this.grantFamilies(role, ['dynamodb:Query'], [LEDGER_KEY_PREFIX.marker]);
    grantKeyVia(this.key, role, ['dynamodb'], ['encrypt']);
  }

  /**
   * The deliver function (docs/adr/0404-delivery-stage.md): read entries (log#) and batch markers (mark#), create
   * batch markers and, on a taken marker key, position items (req#; ADR 0498); it can neither append nor read a claim's
   * log fixing beyond what an entry shows.
   */
  grantPlace(role: iam.IRole): void {
    this.grantFamilies(role, ['dynamodb:Query'], [LEDGER_KEY_PREFIX.entry, LEDGER_KEY_PREFIX.marker]);
    // A position item's attributes only: a claim (req# too) carries requestDigest and headBefore besides.
    grantPutOf(this.table, role, LEDGER_KEY_PREFIX.request, POSITION_ATTRIBUTES);
    grantPutOf(this.table, role, LEDGER_KEY_PREFIX.marker, MARKER_ATTRIBUTES);
    grantKeyVia(this.key, role, ['dynamodb'], ['encrypt']);
  }

  /**
   * The checkpoint function: read entries, checkpoints, notes and cosignatures (for the notes export), create
   * checkpoint and checkpoint-note items only (ckpt#, note#).
   */
  grantCheckpoint(role: iam.IRole): void {
    this.grantFamilies(
      role,
      ['dynamodb:GetItem', 'dynamodb:Query'],
      [LEDGER_KEY_PREFIX.entry, LEDGER_KEY_PREFIX.checkpoint, LEDGER_KEY_PREFIX.note, LEDGER_KEY_PREFIX.cosignature],
    );
    this.grantFamilies(role, ['dynamodb:PutItem'], [LEDGER_KEY_PREFIX.checkpoint, LEDGER_KEY_PREFIX.note]);
    grantKeyVia(this.key, role, ['dynamodb'], ['encrypt']);
  }

  /**
   * Deny PutItem to everyone but the appender, the checkpointer and the placer, and each of those outside its own key
   * families — in the table's resource policy, so that no identity policy granted later (an admin's
   * `dynamodb:*`) can widen it.
   */
  restrictWriters(writers: {
    readonly appender: iam.IRole;
    readonly checkpointer: iam.IRole;
    readonly placer: iam.IRole;
  }): void {
    const anyOf = (prefixes: string[]) => prefixes.map((p) => `${p}*`);
    this.denyPut('DenyPutItemExceptWriterRoles', {
      ArnNotEquals: {
        'aws:PrincipalArn': [writers.appender.roleArn, writers.checkpointer.roleArn, writers.placer.roleArn],
      },
    });
    this.denyPutOutside(
      'DenyPlacerOutsidePositionItems',
      writers.placer,
      anyOf([LEDGER_KEY_PREFIX.request, LEDGER_KEY_PREFIX.marker]),
    );
    // req# also holds claims: the placer may write a position's attributes only, so it can never plant a claim.
    this.denyPut('DenyPlacerAnythingButAPosition', {
      ArnEquals: { 'aws:PrincipalArn': writers.placer.roleArn },
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LEDGER_KEY_PREFIX.request}*`] },
      'ForAnyValue:StringNotEquals': { 'dynamodb:Attributes': [...POSITION_ATTRIBUTES] },
    });
    this.denyPut('DenyPlacerAnythingButAMarker', {
      ArnEquals: { 'aws:PrincipalArn': writers.placer.roleArn },
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LEDGER_KEY_PREFIX.marker}*`] },
      'ForAnyValue:StringNotEquals': { 'dynamodb:Attributes': [...MARKER_ATTRIBUTES] },
    });
    this.denyPutOutside(
      'DenyAppenderOutsideEntryAndRequestItems',
      writers.appender,
      anyOf([LEDGER_KEY_PREFIX.entry, LEDGER_KEY_PREFIX.request]),
    );
    this.denyPutOutside(
      'DenyCheckpointerOutsideCheckpointItems',
      writers.checkpointer,
      anyOf([LEDGER_KEY_PREFIX.checkpoint, LEDGER_KEY_PREFIX.note]),
    );
  }

  /** A table-policy Deny of PutItem to every principal the conditions match. */
  private denyPut(sid: string, conditions: Record<string, unknown>): void {
    this.table.addToResourcePolicy(denyToEveryone(sid, ['dynamodb:PutItem'], this.tableArnLiteral(), conditions));
  }

  /** Denies `role` PutItem on any key outside `patterns`. */
  private denyPutOutside(sid: string, role: iam.IRole, patterns: string[]): void {
    this.denyPut(sid, {
      ArnEquals: { 'aws:PrincipalArn': role.roleArn },
      'ForAnyValue:StringNotLike': { 'dynamodb:LeadingKeys': patterns },
    });
  }

  private grantFamilies(role: iam.IRole, actions: string[], prefixes: string[]): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions,
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) } },
      }),
    );
  }
}

/** PutItem of `family` items of `table` carrying only `attributes`. */
function grantPutOf(table: dynamodb.ITable, role: iam.IRole, family: string, attributes: readonly string[]): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:PutItem'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${family}*`] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...attributes] },
      },
    }),
  );
}
