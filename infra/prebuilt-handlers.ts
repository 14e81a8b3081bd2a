/**
 * An installed @docket/cdk has no repository to bundle the handlers from: it ships them prebuilt, bundled by the same
 * DocketFunction (esbuild, ESM, node24) when the package is built, under `handlers/<variant>/<name>/index.mjs`
 * (docs/adr/0447-cdk-package-ships-prebuilt-handlers.md). In the repository this finds none, and DocketFunction
 * bundles from functions/*.ts as it always has.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packagesAbove } from './paths.js';

/** The npm name of the construct package. */
export const CDK_PACKAGE_NAME = '@docket/cdk';

/** The two builds of each handler: the AWS SDK from the Lambda runtime (the default) or inlined (bundleAwsSdk). */
export type HandlerVariant = 'runtime-sdk' | 'bundled-sdk';

export const handlerVariant = (bundleAwsSdk: boolean): HandlerVariant => (bundleAwsSdk ? 'bundled-sdk' : 'runtime-sdk');

/** Where a package's prebuilt handler lives, relative to the package root. */
export function prebuiltHandlerPath(entry: string, variant: HandlerVariant): string {
  return join('handlers', variant, basename(entry, '.ts'));
}

/**
 * The directory holding the prebuilt bundle of `entry` (e.g. "functions/evaluate.ts") when this code runs from an
 * installed @docket/cdk, else undefined. A package without the bundle is broken: that throws rather than deploying a
 * function without code.
 */
export function prebuiltHandlerDirectory(
  entry: string,
  bundleAwsSdk: boolean,
  fromUrl: string = import.meta.url,
): string | undefined {
  // The package this code runs from: the nearest package.json above it.
  const pkg = packagesAbove(fromUrl).next().value;
  if (pkg?.name !== CDK_PACKAGE_NAME) return undefined;
  const dir = join(pkg.dir, prebuiltHandlerPath(entry, handlerVariant(bundleAwsSdk)));
  if (!existsSync(join(dir, 'index.mjs')))
    throw new Error(`${CDK_PACKAGE_NAME} at ${pkg.dir} lacks its prebuilt handler ${dir}/index.mjs: reinstall it`);
  return dir;
}
