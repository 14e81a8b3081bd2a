/**
 * Regenerates the committed ledger tamper corpus: `npm run build && node dist/conformance/ledger/generate.js`.
 * Deterministic (fixed seeds, fixed times, deterministic Ed25519); test/verify checks the committed files equal a
 * fresh generation byte for byte.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../runner.js';
import { generateLedgerCorpus } from './scenarios.js';

const root = join(findRepoRoot(), 'conformance', 'ledger');
const files = generateLedgerCorpus();
rmSync(join(root, 'scenarios'), { recursive: true, force: true });
for (const [path, text] of files) {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}
process.stdout.write(
  `wrote ${files.size} files (${files.size > 0 ? [...files.keys()].filter((k) => k.endsWith('expected.json')).length : 0} scenarios)\n`,
);
