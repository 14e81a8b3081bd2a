/**
 * Sealed ADRs (docs/adr/0321-accepted-adrs-are-sealed.md): docs/adr/sealed.sha256 holds, for every accepted ADR, the
 * SHA-256 of its text with the Status line normalized, so the one edit an accepted ADR may receive — its Status line
 * moving to "superseded by NNNN" or "partially superseded by NNNN" — keeps its digest, and any other edit changes it.
 *
 * `npm run adr:seal` (this file, run by Node with its types stripped) adds the ADRs not yet in the manifest; it never
 * rewrites a digest already there: a changed decision is a new ADR, not a new seal.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MANIFEST = 'sealed.sha256';
export const ADR_FILE = /^\d{4}-.*\.md$/;
const STATUS_LINE = /^- Status: .*$/m;
const MANIFEST_LINE = /^([0-9a-f]{64}) {2}(\d{4}-[^\s/]+\.md)$/;

/** The text a seal covers: the ADR as written, with its first Status line standing for whatever status it has. */
export function sealedText(text: string): string {
  return text.replace(STATUS_LINE, '- Status: (sealed)');
}

export function digestOf(text: string): string {
  return createHash('sha256').update(sealedText(text), 'utf8').digest('hex');
}

/** The manifest, strictly: one `<sha256>  <file>` line per ADR, sorted by file, each file once. */
export function readManifest(text: string): Map<string, string> {
  const seals = new Map<string, string>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let previous = '';
  for (const [i, line] of lines.entries()) {
    const m = MANIFEST_LINE.exec(line);
    if (m === null) throw new Error(`${MANIFEST} line ${i + 1} is not "<sha256>  <NNNN-title.md>": ${line}`);
    const [, digest, file] = m as unknown as [string, string, string];
    if (file <= previous) throw new Error(`${MANIFEST} line ${i + 1}: ${file} is out of order or listed twice`);
    previous = file;
    seals.set(file, digest);
  }
  return seals;
}

export function formatManifest(seals: ReadonlyMap<string, string>): string {
  return [...seals.keys()]
    .sort()
    .map((file) => `${seals.get(file)}  ${file}\n`)
    .join('');
}

export interface SealFinding {
  readonly file: string;
  readonly kind: 'unsealed' | 'changed' | 'missing';
  readonly message: string;
}

function adrFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => ADR_FILE.test(f))
    .sort();
}

/** What differs between the ADRs in `dir` and their seals; empty when every ADR is sealed and unchanged. */
export function checkSeals(dir: string): SealFinding[] {
  const seals = readManifest(readFileSync(join(dir, MANIFEST), 'utf8'));
  const files = adrFiles(dir);
  const findings: SealFinding[] = [];
  for (const file of files) {
    const sealed = seals.get(file);
    if (sealed === undefined) {
      findings.push({
        file,
        kind: 'unsealed',
        message: `${file} is not sealed yet: once it is accepted (merged), run \`npm run adr:seal\` and commit ${MANIFEST}`,
      });
    } else if (sealed !== digestOf(readFileSync(join(dir, file), 'utf8'))) {
      findings.push({
        file,
        kind: 'changed',
        message:
          `${file} changed after it was accepted: only its Status line may change (to "superseded by NNNN" or ` +
          `"partially superseded by NNNN"). Restore its text and record the new decision in a new ADR that supersedes it`,
      });
    }
  }
  for (const file of seals.keys())
    if (!files.includes(file))
      findings.push({ file, kind: 'missing', message: `${file} is sealed but gone: an accepted ADR is never deleted` });
  return findings;
}

/** Seal every ADR of `dir` not yet in the manifest; never touch a seal already there. */
export function seal(dir: string): { added: string[]; findings: SealFinding[] } {
  const seals = readManifest(readFileSync(join(dir, MANIFEST), 'utf8'));
  const added = adrFiles(dir).filter((f) => !seals.has(f));
  for (const file of added) seals.set(file, digestOf(readFileSync(join(dir, file), 'utf8')));
  if (added.length > 0) writeFileSync(join(dir, MANIFEST), formatManifest(seals));
  return { added, findings: checkSeals(dir) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = join(import.meta.dirname, '..', '..', 'docs', 'adr');
  const { added, findings } = seal(dir);
  for (const file of added) console.log(`sealed ${file}`);
  if (added.length === 0) console.log('every ADR was already sealed');
  for (const f of findings) console.error(f.message);
  process.exitCode = findings.length > 0 ? 1 : 0;
}
