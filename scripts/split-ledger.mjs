/**
 * Splits core/ledger into its packages (docs/adr/0390-core-ledger-split-into-packages.md), repeatably:
 *
 *   node scripts/split-ledger.mjs            (from the repository root, on a clean tree; then review and commit)
 *   node scripts/split-ledger.mjs --check    (only reports what it would move; changes nothing)
 *
 * 1. Every file directly in core/ledger (but index.ts) must have a line in FILES below, and every folder of
 *    core/ledger must be a package in PACKAGES: otherwise it lists them and exits 1 before changing anything, so a
 *    new file is given a home instead of being left behind.
 * 2. Every relative module specifier in the repository's sources that names a moved file (imports, `export … from`,
 *    `import()`, `import('…').T`, `vi.mock` paths, `require`: any relative string literal that resolves to one) is
 *    rewritten, and so is every relative specifier inside a moved file. Found with the TypeScript parser, not regexes.
 * 3. Mentions of a moved file as `core/ledger/<name>.ts` in comments, in docs/ and README Markdown and in JSON files
 *    are rewritten too — except in accepted ADRs (docs/adr/NNNN-*.md), which are sealed (ADR 0321) and keep the
 *    paths of their day.
 * 4. The files move with `git mv` (a file git does not track yet is renamed).
 * 5. Each package gets the exports core/ledger/index.ts made from its files, in its own index.ts (merged into an
 *    index the package already has), and core/ledger/index.ts becomes the facade: `export *` of each package's
 *    index, in PACKAGES order.
 * 6. Prettier formats every file it changed.
 *
 * On a tree where it already ran it finds nothing to move and nothing to re-export, says so and exits 0.
 * Afterwards run `npx tsc -p tsconfig.json --noEmit`, `npm run lint:layers` and the tests (ADR 0390 lists them).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const LEDGER = 'core/ledger';

/**
 * The packages, lowest first: each imports only packages before it (.dependency-cruiser.cjs enforces the order with
 * one `core-ledger-<package>-below` rule per package). The text heads the package's index.ts.
 */
const PACKAGES = {
  primitives:
    'bytes and hex, SHA-256 and Ed25519 behind the crypto port (the one piece of module state in core, ADR 0185), and RFC 8785 canonical text with its strict record reader: what every ledger record is made of.',
  store:
    'the storage ports adapters implement (LedgerStore, CheckpointNoteStore; ADR 0061) and the in-memory store the tests and the conformance corpus use.',
  notes: 'C2SP signed notes: signature lines, key names and verifier keys (vkeys; ADR 0302).',
  entries:
    'the ledger entry: its kinds and limits, the rules an entry keeps, the one serializer and strict reader, its signature, and the worst-case entry size admission checks (docs/ledger-format.md, ADR 0054).',
  'trust-policy': "what an auditor pins before verifying: the trust policy's strict reader and its key lookups.",
  checkpoints:
    'RFC 9162 Merkle trees and proofs, signed checkpoints and their C2SP checkpoint notes, and publishing a note beside its checkpoint (ADR 0130).',
  export: 'the ledger, checkpoint and checkpoint-note exports: one writer and one strict reader each.',
  witness:
    'the C2SP witness: cosignature lines, the tlog-witness add-checkpoint exchange (client and witness), its state, and the witness policy an auditor requires cosignatures by (ADRs 0131, 0132).',
  verify:
    'offline verification of a ledger against a trust policy, signed checkpoints and witness evidence (docs/verify.md).',
  receipts:
    'receipts: one entry with its inclusion proof to a covering checkpoint, built, read, verified anywhere with the trust policy, and the audit of a saved result (ADRs 0175, 0291).',
  write:
    'the write protocols: appending an entry exactly once to the log its request selects (one writer per log), and the checkpoint writer that verifies every entry before it signs (ADR 0121).',
};

/**
 * Every file directly in core/ledger, by name → its package (or `package/new-name.ts` when it is renamed on the
 * way). A new file gets a line here before the script runs.
 */
const FILES = {
  'bytes.ts': 'primitives',
  'canonical.ts': 'primitives',
  'crypto-port.ts': 'primitives',
  'signature.ts': 'primitives',
  'store.ts': 'store',
  'note-store.ts': 'store',
  'memory-store.ts': 'store',
  'signed-note.ts': 'notes',
  'vkey.ts': 'notes',
  'entry-types.ts': 'entries',
  'entry-rules.ts': 'entries',
  'entry.ts': 'entries',
  // "admission" is core/admission's name; this file is the worst-case size of an entry that admission checks.
  'admission.ts': 'entries/worst-case-entry.ts',
  'trust-policy.ts': 'trust-policy',
  'merkle.ts': 'checkpoints',
  'checkpoint.ts': 'checkpoints',
  'checkpoint-note.ts': 'checkpoints',
  'publish-note.ts': 'checkpoints',
  'export.ts': 'export',
  'notes-export.ts': 'export',
  'cosignature.ts': 'witness',
  'receipt.ts': 'receipts',
  'receipt-build.ts': 'receipts',
  'receipt-verify.ts': 'receipts',
  'promise-audit.ts': 'receipts',
  'append.ts': 'write',
  'log-selection.ts': 'write',
  'checkpoint-writer.ts': 'write',
  // Files other branches were adding when the split was written (a line for a file that is absent does nothing).
  'graph-run-rules.ts': 'entries',
  'graph-run-summary.ts': 'entries',
  'slot-groups.ts': 'write',
};

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP = /^(node_modules|dist|cdk\.out|\.docket|console\/dist|core\/pack\/generated)\//;
const SEALED_ADR = /^docs\/adr\/\d{4}-[^/]*\.md$/;
// JSON whose prose may name a source file: schema descriptions and TypeScript configs. The corpora under
// conformance/ and examples/ are exact bytes (their digests are pinned) and are never touched.
const PROSE_JSON = /^(schema\/[^/]+\.json|(.*\/)?tsconfig[^/]*\.json)$/;

const posix = (p) => p.split(sep).join('/');
const abs = (p) => join(ROOT, p);

function fail(lines) {
  process.stderr.write(`split-ledger: ${lines.join('\n  ')}\n`);
  process.exit(1);
}

/** old repository path → new one, for the loose files of core/ledger; fails listing every file without a line. */
function plannedMoves() {
  const unknown = [];
  const moves = new Map();
  for (const name of readdirSync(abs(LEDGER)).sort()) {
    if (statSync(abs(`${LEDGER}/${name}`)).isDirectory()) {
      if (!(name in PACKAGES)) unknown.push(`${LEDGER}/${name}/ (a folder that is not a package in PACKAGES)`);
      continue;
    }
    if (name === 'index.ts') continue;
    const to = FILES[name];
    if (to === undefined) {
      unknown.push(`${LEDGER}/${name} (add it to FILES with its package)`);
      continue;
    }
    const target = to.includes('/') ? to : `${to}/${name}`;
    if (!(target.split('/')[0] in PACKAGES)) unknown.push(`${LEDGER}/${name} → ${to}: no such package`);
    else if (existsSync(abs(`${LEDGER}/${target}`))) unknown.push(`${LEDGER}/${name} → ${target}: already exists`);
    moves.set(`${LEDGER}/${name}`, `${LEDGER}/${target}`);
  }
  if (unknown.length > 0) fail(['core/ledger holds files it has no home for; nothing was changed:', ...unknown]);
  return moves;
}

/** Every file git tracks or would track (not ignored), repository-relative. */
function repositoryFiles() {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '' && !SKIP.test(f) && existsSync(abs(f)) && lstatSync(abs(f)).isFile()); // not a symlink
}

/** The repository file a relative specifier written in `from` names, if it is a file (a .js specifier names its .ts). */
function resolveSpecifier(from, specifier) {
  const target = posix(relative(ROOT, resolve(dirname(abs(from)), specifier)));
  const candidates = [target];
  const js = /\.(m|c)?js$/.exec(target);
  if (js) candidates.push(target.slice(0, -js[0].length) + `.${js[1] ?? ''}ts`, target.slice(0, -3) + '.tsx');
  if (!/\.[a-z]+$/.test(target)) candidates.push(`${target}.ts`);
  for (const c of candidates) if (existsSync(abs(c)) && statSync(abs(c)).isFile()) return { file: c, spelled: target };
  if (existsSync(abs(target))) return { file: target, spelled: target };
  return undefined;
}

/** The specifier that names `targetNew` from `fromNew`, keeping how the original spelled its extension. */
function specifierFor(fromNew, target, moves) {
  const movedTo = moves.get(target.file);
  let spelledNew = target.spelled;
  if (movedTo !== undefined) {
    // Keep the original's spelling of the extension (.js for a .ts file), moved with the file.
    const ext = target.spelled.slice(target.spelled.lastIndexOf('/') + 1).replace(/^[^.]*/, '');
    const fileExt = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/^[^.]*/, '');
    spelledNew = movedTo.slice(0, movedTo.length - fileExt.length) + ext;
  }
  let s = posix(relative(dirname(abs(fromNew)), abs(spelledNew)));
  if (!s.startsWith('.')) s = `./${s}`;
  return s;
}

/** `core/ledger/<name>.ts|.js` mentions of moved files, in prose. */
function rewriteMentions(text, moves) {
  return text.replace(/core\/ledger\/([a-z0-9-]+)\.(ts|js)\b/g, (whole, name, ext) => {
    const to = moves.get(`${LEDGER}/${name}.ts`);
    return to === undefined ? whole : `${to.slice(0, -3)}.${ext}`;
  });
}

function scriptKind(file) {
  if (/\.(m|c)?js$/.test(file)) return ts.ScriptKind.JS;
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/**
 * String literals that name a moved file by a repository path rather than a specifier: left alone, reported (but
 * not from this script's own test, whose fixture is an old-style tree on purpose).
 */
const OWN_TEST = 'test/layering/split-ledger.test.ts';
const unrewritten = [];

/** The rewritten text of one source file, or undefined when nothing in it changes. */
function rewriteSource(file, text, moves) {
  const fromNew = moves.get(file) ?? file;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const edits = [];
  const comments = new Map();
  const visit = (node) => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ])
      comments.set(r.pos, r.end);
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      /^\.\.?\//.test(node.text) &&
      !/[\n*?]/.test(node.text)
    ) {
      const target = resolveSpecifier(file, node.text);
      if (target !== undefined && (moves.has(target.file) || moves.has(file))) {
        const next = specifierFor(fromNew, target, moves);
        if (next !== node.text) edits.push({ start: node.getStart(sf) + 1, end: node.end - 1, text: next });
      }
    } else if (
      file !== OWN_TEST &&
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      rewriteMentions(node.text, moves) !== node.text
    ) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      unrewritten.push(`${file}:${line + 1}: '${node.text.split('\n')[0]}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  for (const r of ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos) ?? []) comments.set(r.pos, r.end);
  for (const [start, end] of comments) {
    const next = rewriteMentions(text.slice(start, end), moves);
    if (next !== text.slice(start, end)) edits.push({ start, end, text: next });
  }
  if (edits.length === 0) return undefined;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The names a module exports (declarations and re-exports), to merge re-exports into an existing index. */
function exportedNames(sf) {
  const names = new Set();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause))
      for (const el of st.exportClause.elements) names.add(el.name.text);
    else if (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      if (ts.isVariableStatement(st))
        for (const d of st.declarationList.declarations)
          if (ts.isIdentifier(d.name)) names.add(d.name.text);
          else if (st.name && ts.isIdentifier(st.name)) names.add(st.name.text);
    }
  }
  return names;
}

/**
 * Moves the facade's named re-exports into the index of the package each comes from, and makes the facade `export *`
 * every package. Returns the files it wrote.
 */
function writeIndexes() {
  const facadePath = `${LEDGER}/index.ts`;
  const facade = readFileSync(abs(facadePath), 'utf8');
  const sf = ts.createSourceFile(facadePath, facade, ts.ScriptTarget.Latest, true);
  const perPackage = new Map(Object.keys(PACKAGES).map((p) => [p, []]));
  const strange = [];
  for (const st of sf.statements) {
    const spec = ts.isExportDeclaration(st) && st.moduleSpecifier ? st.moduleSpecifier.text : undefined;
    const m = spec === undefined ? null : /^\.\/([^/]+)\/(.+)$/.exec(spec);
    if (m === null || !perPackage.has(m[1])) {
      strange.push(st.getText(sf).split('\n')[0]);
      continue;
    }
    // A re-export of a package's own index is carried by the facade's `export *` of that index.
    if (m[2] === 'index.js') continue;
    perPackage.get(m[1]).push({ st, inner: `./${m[2]}` });
  }
  if (strange.length > 0)
    fail(['core/ledger/index.ts has statements that are not re-exports of a package; move them by hand:', ...strange]);

  const written = [];
  for (const [pkg, decls] of perPackage) {
    const indexPath = `${LEDGER}/${pkg}/index.ts`;
    const had = existsSync(abs(indexPath));
    if (!had && decls.length === 0) continue;
    let text = had ? readFileSync(abs(indexPath), 'utf8') : docComment(`${LEDGER}/${pkg}: ${PACKAGES[pkg]}`);
    if (decls.length === 0) continue;
    const present = exportedNames(ts.createSourceFile(indexPath, text, ts.ScriptTarget.Latest, true));
    // One `export { … } from` per module, in the order the facade first named it; type-only ones inline `type`.
    const byModule = new Map();
    for (const { st, inner } of decls) {
      if (!st.exportClause || !ts.isNamedExports(st.exportClause)) {
        text += `export * from '${inner}';\n`;
        continue;
      }
      for (const el of st.exportClause.elements) {
        if (present.has(el.name.text)) continue;
        present.add(el.name.text);
        const spelled = el.getText(sf).replace(/^type\s+/, '');
        const list = byModule.get(inner) ?? [];
        list.push(st.isTypeOnly || el.isTypeOnly ? `type ${spelled}` : spelled);
        byModule.set(inner, list);
      }
    }
    for (const [inner, list] of byModule) text += `export { ${list.join(', ')} } from '${inner}';\n`;
    writeFileSync(abs(indexPath), text);
    written.push(indexPath);
  }
  const packages = Object.keys(PACKAGES).filter((p) => existsSync(abs(`${LEDGER}/${p}/index.ts`)));
  const next =
    docComment(
      "core/ledger: the audit ledger's formats and protocols (docs/ledger-format.md), one package per concept " +
        "(docs/adr/0390-core-ledger-split-into-packages.md). This facade re-exports each package's index, lowest " +
        "first; code outside core may import it or one package's index.ts. Pure: hashing and signing through the " +
        'injected crypto port, no clock, no randomness, no I/O beyond the store ports adapters implement.',
    ) + packages.map((p) => `export * from './${p}/index.js';\n`).join('');
  if (next !== facade) {
    writeFileSync(abs(facadePath), next);
    written.push(facadePath);
  }
  return written;
}

/** A JSDoc block of `text`, wrapped at the project's 120 columns (prettier leaves comments as they are). */
function docComment(text) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > 117) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.length === 1 && lines[0].length <= 113
    ? `/** ${lines[0]} */\n`
    : `/**\n${lines.map((l) => ` * ${l}\n`).join('')} */\n`;
}

function gitTracks(file) {
  try {
    execFileSync('git', ['ls-files', '--error-unmatch', file], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function main() {
  const check = process.argv.includes('--check');
  const moves = plannedMoves();
  if (check) {
    for (const [from, to] of moves) process.stdout.write(`${from} → ${to}\n`);
    process.stdout.write(`${moves.size} file(s) to move\n`);
    return;
  }

  // Plan every edit against today's tree before changing anything.
  const rewritten = new Map();
  for (const file of repositoryFiles()) {
    const text = readFileSync(abs(file), 'utf8');
    let next;
    if (SOURCE.test(file)) next = rewriteSource(file, text, moves);
    else if ((file.endsWith('.md') && !SEALED_ADR.test(file)) || PROSE_JSON.test(file)) {
      const r = rewriteMentions(text, moves);
      next = r === text ? undefined : r;
    }
    if (next !== undefined) rewritten.set(file, next);
  }

  for (const [from, to] of moves) {
    mkdirSync(dirname(abs(to)), { recursive: true });
    if (gitTracks(from)) execFileSync('git', ['mv', from, to], { cwd: ROOT, stdio: 'inherit' });
    else renameSync(abs(from), abs(to));
  }
  const touched = new Set();
  for (const [file, text] of rewritten) {
    const at = moves.get(file) ?? file;
    writeFileSync(abs(at), text);
    touched.add(at);
  }
  for (const f of writeIndexes()) touched.add(f);

  if (moves.size === 0 && touched.size === 0) {
    process.stdout.write('split-ledger: core/ledger is already split; nothing to do\n');
    return;
  }
  const formattable = [...touched].filter((f) => SOURCE.test(f));
  if (formattable.length > 0)
    execFileSync(join(ROOT, 'node_modules/.bin/prettier'), ['--write', '--log-level', 'warn', ...formattable], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  execFileSync('git', ['add', '-A', '--', LEDGER, ...touched], { cwd: ROOT, stdio: 'inherit' });
  if (unrewritten.length > 0)
    process.stdout.write(
      'split-ledger: these strings name a moved file by its old path and were left as they are (test fixtures ' +
        `name synthetic trees); check each:\n  ${unrewritten.join('\n  ')}\n`,
    );
  process.stdout.write(
    `split-ledger: moved ${moves.size} file(s), rewrote ${touched.size} file(s); staged. Next: ` +
      'npx tsc -p tsconfig.json --noEmit && npm run lint:layers\n',
  );
}

main();
