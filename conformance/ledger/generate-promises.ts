/**
 * Regenerates the committed promises corpus: `npm run build && node dist/conformance/ledger/generate-promises.js`.
 * Deterministic (fixed seeds, fixed times, deterministic Ed25519); test/verify/promise-corpus.test.ts checks the
 * committed files equal a fresh generation byte for byte.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../runner.js';
import { generatePromiseCorpus } from './promise-scenarios.js';

const root = join(findRepoRoot(), 'conformance', 'ledger');
const files = await generatePromiseCorpus();
rmSync(join(root, 'promises'), { recursive: true, force: true });
for (const [path, text] of files) {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}
process.stdout.write(`wrote ${files.size} files\n`);
