/**
 * core/ledger is a facade over its packages (docs/adr/0390-core-ledger-split-into-packages.md): nothing but the
 * facade lies loose in it, each package has an index.ts, and the facade re-exports exactly the packages
 * .dependency-cruiser.cjs orders, in that order, so a package added without its order rule (or a file dropped into
 * core/ledger without a package) fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cruise.js';

const LEDGER = join(ROOT, 'core', 'ledger');
const entries = readdirSync(LEDGER);
const folders = entries.filter((name) => statSync(join(LEDGER, name)).isDirectory()).sort();

/** The packages the order rules name, lowest first. */
function orderedPackages(): string[] {
  const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
    forbidden: { name: string }[];
  };
  return config.forbidden.flatMap((r) => /^core-ledger-order-(.+)$/.exec(r.name)?.slice(1) ?? []);
}

/** The packages a facade text re-exports with `export * from './<package>/index.js'`, in order. */
function facadePackages(text: string): string[] {
  return [...text.matchAll(/^export \* from '\.\/([a-z-]+)\/index\.js';$/gm)].map((m) => m[1] as string);
}

describe('core/ledger', () => {
  it('holds only its facade index.ts and package folders', () => {
    expect(entries.filter((name) => !folders.includes(name))).toEqual(['index.ts']);
  });

  it.each(folders)('gives its package %s an index.ts', (folder) => {
    expect(readdirSync(join(LEDGER, folder))).toContain('index.ts');
  });

  it('has an order rule in .dependency-cruiser.cjs for each package folder, and for no other', () => {
    expect([...orderedPackages()].sort()).toEqual(folders);
  });

  it('re-exports every package from its facade, lowest first, and nothing else', () => {
    const text = readFileSync(join(LEDGER, 'index.ts'), 'utf8');
    expect(facadePackages(text)).toEqual(orderedPackages());
    expect(text.split('\n').filter((l) => /^(export|import) /.test(l) && !l.startsWith('export * from'))).toEqual([]);
  });

  it('would notice a facade that skips or reorders a package', () => {
    const text = "export * from './store/index.js';\nexport * from './primitives/index.js';\n";
    expect(facadePackages(text)).toEqual(['store', 'primitives']);
    expect(facadePackages(text)).not.toEqual(orderedPackages());
  });
});
