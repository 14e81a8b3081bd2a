/**
 * The checkpoint key (docs/adr/0120-separate-entry-and-checkpoint-keys.md): a KMS key with key spec
 * ECC_NIST_EDWARDS25519 and usage SIGN_VERIFY. Its private half never leaves KMS (asymmetric KMS keys are not
 * exportable); the checkpoint function signs through kms:Sign (ED25519_SHA_512, RAW: pure RFC 8032 Ed25519).
 * Least privilege: only the checkpoint role holds an identity grant for Sign and GetPublicKey, and the key policy
 * denies kms:Sign to every other principal — the evaluate role and administrators included. The public half is
 * pinned in the trust policy (`docket keygen --checkpoint-public-key`).
 */
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { denyExcept } from './deny-except.js';

export class CheckpointKey extends Construct {
  readonly key: kms.Key;
  private readonly signers: iam.IRole[] = [];

  constructor(scope: Construct, id: string, props: { readonly prefix: string }) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      alias: `alias/${props.prefix}-checkpoint`,
      description: `Docket ${props.prefix}: Ed25519 checkpoint signing key (non-exportable; only the checkpoint function signs)`,
      keySpec: kms.KeySpec.ECC_NIST_EDWARDS25519,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      // Key rotation does not exist for asymmetric keys: a new checkpoint key is a trust-policy event (docs/deploy.md).
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
    new CfnOutput(scope, 'CheckpointKeyArn', {
      value: this.key.keyArn,
      description:
        'Pin its public key: aws kms get-public-key --key-id <arn>, then docket keygen --checkpoint-public-key',
    });
  }

  /** The checkpoint function signs and reads the public key; nothing else. */
  grantSign(role: iam.IRole): void {
    this.signers.push(role);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [this.key.keyArn] }),
    );
  }

  /** Deny kms:Sign to every principal but the signers (call after every grantSign). */
  seal(): void {
    const signers = this.signers.map((r) => r.roleArn);
    this.key.addToResourcePolicy(denyExcept('DenySignExceptCheckpointWriter', ['kms:Sign'], '*', signers));
  }
}
