/**
 * Regenerates the committed corpus: `npm run build && node dist/conformance/generate.js`.
 * Deterministic; test/conformance checks that the committed files equal a fresh generation.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateCorpus, generateRfc0008Corpus, RFC0008_CORPUS_DIR } from './generator/emit.js';
import { findRepoRoot } from './runner.js';

const root = findRepoRoot();
const files = new Map([...generateCorpus(root), ...generateRfc0008Corpus()]);
// Remove generated directories first so a renamed case leaves no stale file behind.
const draft = ['document/documents', 'evaluation/packs', 'evaluation/inputs'].map((d) => `${RFC0008_CORPUS_DIR}/${d}`);
for (const dir of ['document/documents', 'evaluation/packs', 'evaluation/inputs', ...draft])
  rmSync(join(root, 'conformance', dir), { recursive: true, force: true });
for (const [path, bytes] of files) {
  const full = join(root, 'conformance', path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, bytes);
}
const count = (d: string) => readdirSync(join(root, 'conformance', d)).length;
process.stdout.write(
  `wrote ${files.size} files (${count('document/documents')} documents, ${count('evaluation/packs')} packs, ${count('evaluation/inputs')} inputs)\n`,
);
