/**
 * A package's API report (docs/adr/0441-api-reports-from-the-built-declarations.md), in the spirit of API
 * Extractor's .api.md: every exported name of each entry with its declaration as the built .d.ts states it, then
 * every declaration those reach inside the package that is not exported itself (a changed member of an unexported
 * interface is still a changed API). Comments are dropped and declarations are printed by TypeScript's printer, so
 * only a change of the API changes the report. Names are sorted; output is deterministic.
 */
import { relative } from 'node:path';
import ts from 'typescript';
import { compilerHostSharingInstalled } from './installed-declarations.mjs';

const OPTIONS = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

/** One host for every report a process writes: the installed declarations are parsed once (aws-cdk-lib's included). */
const host = compilerHostSharingInstalled(OPTIONS);

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/**
 * A declaration printed (a variable's whole statement), without `export`/`declare` modifiers (where a declaration is
 * exported is said by its section).
 */
function text(decl) {
  const node = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
  const printed = printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
  return printed.replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '');
}

/** Named type and value references inside a declaration (type references, heritage clauses, typeof queries). */
function references(node, checker) {
  const found = [];
  const visit = (n) => {
    let id;
    if (ts.isTypeReferenceNode(n)) id = n.typeName;
    else if (ts.isExpressionWithTypeArguments(n)) id = n.expression;
    else if (ts.isTypeQueryNode(n)) id = n.exprName;
    if (id !== undefined) {
      let s = checker.getSymbolAtLocation(ts.isQualifiedName(id) ? id.right : id);
      if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
      if (s) found.push(s);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/**
 * The report for `name`'s entries ({ entry, file }: the built dist/<entry>.d.ts). Declarations outside the
 * package's own declaration tree (node_modules, lib) are named where used but not expanded.
 */
export function apiReport(name, entries) {
  const files = entries.map((e) => e.file);
  const program = ts.createProgram(files, OPTIONS, host);
  const checker = program.getTypeChecker();
  const packageRoot = files[0].replace(/[\\/]dist[\\/][^\\/]+$/, '');
  const inPackage = (d) => !relative(packageRoot, d.getSourceFile().fileName).startsWith('..');
  const lines = [
    `# API report: ${name}`,
    '',
    '<!-- Written by `npm run api:report` from the built declarations (scripts/api-report.mjs); test/packages/api-report.test.ts fails when the API differs. -->',
  ];
  const seen = new Set();
  const queue = [];
  const declarationsOf = (s) => (s.declarations ?? []).filter(inPackage);
  for (const { entry, file } of entries) {
    const sf = program.getSourceFile(file);
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) throw new Error(`${file}: not a module`);
    lines.push('', `## Entry \`${entry === 'index' ? name : `${name}/${entry}`}\``, '', '```ts');
    const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
    for (const s of exported) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      seen.add(target);
      const decls = declarationsOf(target);
      if (decls.length === 0) lines.push(`export { ${s.name} } // from outside the package`);
      for (const d of decls) {
        const body = text(d);
        lines.push(`export ${body}${target.name !== s.name ? ` // exported as ${s.name}` : ''}`);
        queue.push(...references(d, checker));
      }
    }
    lines.push('```');
  }
  const unexported = [];
  while (queue.length > 0) {
    const s = queue.shift();
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of declarationsOf(s)) {
      if (ts.isTypeParameterDeclaration(d)) continue;
      unexported.push({ name: s.name, body: text(d) });
      queue.push(...references(d, checker));
    }
  }
  if (unexported.length > 0) {
    unexported.sort((a, b) => a.name.localeCompare(b.name) || a.body.localeCompare(b.body));
    lines.push('', '## Referenced, not exported', '', '```ts', ...unexported.map((u) => u.body), '```');
  }
  return `${lines.join('\n')}\n`;
}
