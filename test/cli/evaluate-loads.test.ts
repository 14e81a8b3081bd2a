/**
 * `docket evaluate`, single or `--batch`, starts in a small multiple of a bare `node -e 0` (docs/adr/0332-cli-start-up.md,
 * measured by bench/cli-start.bench.ts) because of what it does not load: neither path reaches the ledger, the graph
 * layer, admission or the AWS adapters. The check follows the static imports of the TypeScript sources (type-only
 * imports erase at build time; `await import()` is lazy by design).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The relative modules a source imports at load time: `import … from`, `import '…'` and `export … from`. */
export function loadTimeImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(import|export)(\s+type\b)?[^'";]*?(?:from\s+)?['"](\.[^'"]+)['"]/gm))
    if (m[2] === undefined) out.push(m[3] as string);
  return out;
}

/** Every repository module reached from `entry` by load-time imports, as repository paths. */
function reached(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    const path = relative(ROOT, file);
    if (seen.has(path)) return;
    seen.add(path);
    for (const spec of loadTimeImports(readFileSync(file, 'utf8'))) {
      const target = join(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) visit(target);
    }
  };
  visit(join(ROOT, entry));
  return seen;
}

const HEAVY = /^(core\/(ledger|graph|graph-closure|admission|pipeline|replay)|adapters|stack|functions)\//;

describe('docket evaluate', () => {
  it.each(['cli/commands/evaluate.ts', 'cli/batch/run-batch.ts'])(
    '%s loads nothing of the ledger, graphs, admission or the AWS adapters',
    (entry) => {
      const modules = [...reached(entry)];
      expect(modules).toContain('core/evaluate/index.ts');
      expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
    },
  );

  it('follows value imports and re-exports, not type-only ones', () => {
    expect(
      loadTimeImports(
        "import { a } from './a.js';\nimport type { B } from './b.js';\nexport { c } from './c.js';\n" +
          "export type { D } from './d.js';\nimport './e.js';\nimport {\n  f,\n} from '../f.js';\n",
      ),
    ).toEqual(['./a.js', './c.js', './e.js', '../f.js']);
  });
});
