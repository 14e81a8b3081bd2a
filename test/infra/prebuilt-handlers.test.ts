import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HANDLER_ENTRIES } from '../../infra/paths.js';
import { CDK_PACKAGE_NAME, prebuiltHandlerDirectory } from '../../infra/prebuilt-handlers.js';

/** A package directory with a package.json named `name`, and the code file the lookup starts from. */
function fakePackage(name: string, handlers: readonly string[]): { root: string; from: string } {
  const root = mkdtempSync(join(tmpdir(), 'docket-prebuilt-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name }));
  mkdirSync(join(root, 'dist'));
  for (const h of handlers) {
    mkdirSync(join(root, 'handlers', h), { recursive: true });
    writeFileSync(join(root, 'handlers', h, 'index.mjs'), 'export const handler = async () => {};');
  }
  return { root, from: pathToFileURL(join(root, 'dist', 'index.js')).href };
}

describe('prebuilt handlers', () => {
  it('are not used in the repository: DocketFunction bundles functions/*.ts there', () => {
    expect(prebuiltHandlerDirectory(HANDLER_ENTRIES.evaluate, false)).toBeUndefined();
  });

  it('are found inside an installed @docket/cdk, in the variant the configuration asks for', () => {
    const { root, from } = fakePackage(CDK_PACKAGE_NAME, ['runtime-sdk/evaluate', 'bundled-sdk/evaluate']);
    try {
      expect(prebuiltHandlerDirectory(HANDLER_ENTRIES.evaluate, false, from)).toBe(
        join(root, 'handlers', 'runtime-sdk', 'evaluate'),
      );
      expect(prebuiltHandlerDirectory(HANDLER_ENTRIES.evaluate, true, from)).toBe(
        join(root, 'handlers', 'bundled-sdk', 'evaluate'),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('an installed @docket/cdk without the bundle is broken: that throws rather than deploying no code', () => {
    const { root, from } = fakePackage(CDK_PACKAGE_NAME, ['runtime-sdk/evaluate']);
    try {
      expect(() => prebuiltHandlerDirectory(HANDLER_ENTRIES.deliver, false, from)).toThrow(
        /lacks its prebuilt handler/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('code inside any other package is not mistaken for @docket/cdk', () => {
    const { root, from } = fakePackage('someone-else', ['runtime-sdk/evaluate']);
    try {
      expect(prebuiltHandlerDirectory(HANDLER_ENTRIES.evaluate, false, from)).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
