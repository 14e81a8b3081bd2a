/**
 * Lambda code signing (docs/adr/0122-function-code-signing-and-what-adr-0080-overstated.md): an AWS Signer profile
 * and a code-signing configuration with UntrustedArtifactOnDeployment = Enforce, attached to both functions. Lambda
 * then refuses any code package not signed by this profile — an administrator can no longer swap a function's code
 * with UpdateFunctionCode (or redeploy unsigned code) without a signature the deployment pipeline alone makes. The
 * SCPs in docs/deploy.md keep the configuration itself from being detached.
 */
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as signer from 'aws-cdk-lib/aws-signer';
import { Construct } from 'constructs';

export class CodeSigning extends Construct {
  readonly profile: signer.SigningProfile;
  readonly config: lambda.CodeSigningConfig;

  constructor(scope: Construct, id: string, props: { readonly prefix: string }) {
    super(scope, id);
    this.profile = new signer.SigningProfile(this, 'Profile', {
      platform: signer.Platform.AWS_LAMBDA_SHA384_ECDSA,
    });
    this.config = new lambda.CodeSigningConfig(this, 'Config', {
      signingProfiles: [this.profile],
      untrustedArtifactOnDeployment: lambda.UntrustedArtifactOnDeployment.ENFORCE,
      description: `Docket ${props.prefix}: only code signed by the deployment pipeline's profile may run`,
    });
  }
}
