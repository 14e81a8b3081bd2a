/**
 * The customer-managed KMS key that encrypts the ledger, the pack registry, the request archive, the checkpoint
 * export bucket and the signing secret. RETAIN: a retained table is unreadable without its key.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export class DataKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: { readonly prefix: string }) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      alias: `alias/${props.prefix}-data`,
      description: `Docket ${props.prefix}: ledger, registry, request archive, checkpoint exports, signing secret`,
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
  }
}
