/**
 * Regenerates the committed receipt corpus: `npm run build && node dist/conformance/ledger/generate-receipts.js`.
 * Deterministic (fixed seeds, fixed times, deterministic Ed25519); test/verify/receipt-corpus.test.ts checks the
 * committed files equal a fresh generation byte for byte.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../runner.js';
import { generateReceiptCorpus } from './receipt-scenarios.js';

const root = join(findRepoRoot(), 'conformance', 'ledger');
const files = await generateReceiptCorpus();
rmSync(join(root, 'receipts'), { recursive: true, force: true });
for (const [path, text] of files) {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}
process.stdout.write(`wrote ${files.size} files\n`);
