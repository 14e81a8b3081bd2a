/**
 * Builds the Lambda handlers an installed @docket/cdk deploys (infra/prebuilt-handlers.ts,
 * docs/adr/0447-cdk-package-ships-prebuilt-handlers.md): each handler of HANDLER_ENTRIES, in both variants, bundled by
 * DocketFunction itself — the one definition of how a Docket handler is bundled — and copied out of the synthesized
 * assembly to `<outDir>/handlers/<variant>/<name>/index.mjs`.
 *
 *   node --experimental-transform-types --import ./scripts/ts-resolve-hooks.mjs infra/prebuild-handlers.ts <outDir>
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Duration, Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { EXIT } from '../core/exit-codes.js';
import { DocketFunction } from './constructs/docket-function.js';
import { HANDLER_ENTRIES } from './paths.js';
import { handlerVariant, prebuiltHandlerPath } from './prebuilt-handlers.js';

/** Writes every prebuilt handler under `outDir`; returns the files written (relative to `outDir`). */
export function prebuildHandlers(outDir: string): string[] {
  const written: string[] = [];
  for (const bundleAwsSdk of [false, true]) {
    const cdkOut = mkdtempSync(join(tmpdir(), 'docket-prebuild-'));
    try {
      const app = new App({ analyticsReporting: false, outdir: cdkOut });
      const stack = new Stack(app, 'Prebuild');
      const fns = Object.entries(HANDLER_ENTRIES).map(([name, entry]) => {
        const f = new DocketFunction(stack, name, {
          functionName: `prebuild-${name}`,
          entry,
          description: 'prebuild',
          timeout: Duration.seconds(3),
          memoryMb: 128,
          logRetentionDays: 7,
          environment: {},
          bundleAwsSdk,
        });
        return { entry, cfn: f.fn.node.defaultChild as lambda.CfnFunction };
      });
      const assembly = app.synth();
      for (const { entry, cfn } of fns) {
        // The staged asset's directory is named by the hash the template's S3 key carries.
        const code = stack.resolve(cfn.code) as { s3Key: string };
        const hash = code.s3Key.replace(/\.zip$/, '');
        const rel = join(prebuiltHandlerPath(entry, handlerVariant(bundleAwsSdk)), 'index.mjs');
        mkdirSync(join(outDir, rel, '..'), { recursive: true });
        copyFileSync(join(assembly.directory, `asset.${hash}`, 'index.mjs'), join(outDir, rel));
        written.push(rel);
      }
    } finally {
      rmSync(cdkOut, { recursive: true, force: true });
    }
  }
  return written.sort();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (outDir === undefined) {
    process.stderr.write('usage: prebuild-handlers.ts <outDir>\n');
    process.exit(EXIT.USAGE);
  }
  for (const f of prebuildHandlers(resolve(outDir))) process.stdout.write(`${f}\n`);
}
