/**
 * jpack.json is read exactly as the runtime's own schema defines it (../shared/reference/jpack-config.schema.json,
 * copied verbatim to schema/jpack-config.schema.json): a table of projects derived from the schema — every member,
 * both version gates, every pattern — is judged by the schema itself (ajv, draft 2020-12) and by Docket's reader,
 * and the two agree on every one; a refused project names the member.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { lexicallyInside, parseJpackConfig } from '../../core/project/index.js';

const Ajv2020 = Ajv2020Module.default;
const SCHEMA = JSON.parse(readFileSync(join(process.cwd(), 'schema', 'jpack-config.schema.json'), 'utf8')) as object;
const schemaAccepts = new Ajv2020({ strict: false, allErrors: false }).compile(SCHEMA);

const pack = { path: 'p.json' };
const base = { configVersion: '1', packs: { a: pack } };
const v2 = { configVersion: '2', packs: { a: pack }, graphs: { g: { path: 'g.json' } } };
const v3 = { ...v2, configVersion: '3', audit: { dir: 'audit' } };
const hint = { source: 'warehouse', hint: 'select' };

/** [name, document, the member a refusal names (undefined = accepted)]; lexical containment is beyond the schema. */
const CASES: [string, unknown, string | undefined][] = [
  ['the smallest "1" project', base, undefined],
  ['a "2" project with a graph', v2, undefined],
  ['a "3" project with graphs and audit', v3, undefined],
  ['a "3" project without audit or graphs', { ...base, configVersion: '3' }, undefined],
  ['a "2" project without graphs', { ...base, configVersion: '2' }, undefined],
  [
    'every pack member',
    {
      ...base,
      packs: {
        a: {
          path: 'p.json',
          matrix: 'm.json',
          description: 'd',
          expectedVersion: '1.20.0',
          facts: { '/x/y': hint, '': { source: 's' }, '/a~1b~0': { hint: 'h' } },
          evidence: { 'screening-record': hint },
        },
      },
    },
    undefined,
  ],
  ['every graph member', { ...v2, graphs: { g: { path: 'g.json', rows: 'r.json', description: 'd' } } }, undefined],
  ['a nested relative path', { ...base, packs: { a: { path: 'x/../y/p.json' } } }, undefined],
  [
    'the runtime example project',
    JSON.parse(readFileSync(join(process.cwd(), 'examples/runtime-project/jpack.json'), 'utf8')),
    undefined,
  ],
  ['no configVersion', { packs: { a: pack } }, '/configVersion'],
  ['configVersion 4', { ...base, configVersion: '4' }, '/configVersion'],
  ['a numeric configVersion', { ...base, configVersion: 2 }, '/configVersion'],
  ['graphs under "1"', { ...v2, configVersion: '1' }, '/configVersion'],
  ['audit under "2"', { ...v3, configVersion: '2' }, '/configVersion'],
  ['no packs', { configVersion: '1' }, '/packs'],
  ['empty packs', { configVersion: '1', packs: {} }, '/packs'],
  ['packs not an object', { configVersion: '1', packs: [] }, '/packs'],
  ['a pack name not a decision id', { ...base, packs: { A: pack } }, '/packs/A'],
  ['an unknown root member', { ...base, formatVersion: '1' }, '/formatVersion'],
  ['an unknown pack member', { ...base, packs: { a: { path: 'p', id: 'x' } } }, '/packs/a/id'],
  ['a pack without path', { ...base, packs: { a: { description: 'd' } } }, '/packs/a/path'],
  ['an empty path', { ...base, packs: { a: { path: '' } } }, '/packs/a/path'],
  ['a numeric path', { ...base, packs: { a: { path: 1 } } }, '/packs/a/path'],
  ['an empty description', { ...base, packs: { a: { path: 'p', description: '' } } }, '/packs/a/description'],
  ['an empty matrix', { ...base, packs: { a: { path: 'p', matrix: '' } } }, '/packs/a/matrix'],
  [
    'a loose expectedVersion',
    { ...base, packs: { a: { path: 'p', expectedVersion: '1.0' } } },
    '/packs/a/expectedVersion',
  ],
  [
    'a leading-zero expectedVersion',
    { ...base, packs: { a: { path: 'p', expectedVersion: '01.0.0' } } },
    '/packs/a/expectedVersion',
  ],
  ['a fact hint key not a pointer', { ...base, packs: { a: { path: 'p', facts: { x: hint } } } }, '/packs/a/facts/x'],
  ['a bad pointer escape', { ...base, packs: { a: { path: 'p', facts: { '/a~2': hint } } } }, '/packs/a/facts/~1a~02'],
  ['an empty hint', { ...base, packs: { a: { path: 'p', facts: { '/x': {} } } } }, '/packs/a/facts/~1x'],
  [
    'an unknown hint member',
    { ...base, packs: { a: { path: 'p', evidence: { e: { url: 'u' } } } } },
    '/packs/a/evidence/e/url',
  ],
  [
    'an empty hint source',
    { ...base, packs: { a: { path: 'p', evidence: { e: { source: '' } } } } },
    '/packs/a/evidence/e/source',
  ],
  [
    'an evidence hint key not a decision id',
    { ...base, packs: { a: { path: 'p', evidence: { E: hint } } } },
    '/packs/a/evidence/E',
  ],
  ['evidence hints not an object', { ...base, packs: { a: { path: 'p', evidence: [] } } }, '/packs/a/evidence'],
  ['empty graphs', { ...v2, graphs: {} }, '/graphs'],
  ['a graph name not a decision id', { ...v2, graphs: { G: { path: 'g' } } }, '/graphs/G'],
  ['an unknown graph member', { ...v2, graphs: { g: { path: 'g', matrix: 'm' } } }, '/graphs/g/matrix'],
  ['a graph without path', { ...v2, graphs: { g: { rows: 'r' } } }, '/graphs/g/path'],
  ['empty rows', { ...v2, graphs: { g: { path: 'g', rows: '' } } }, '/graphs/g/rows'],
  ['audit without dir', { ...v3, audit: {} }, '/audit/dir'],
  ['an unknown audit member', { ...v3, audit: { dir: 'a', file: 'x' } }, '/audit/file'],
  ['an empty audit dir', { ...v3, audit: { dir: '' } }, '/audit/dir'],
  ['a root that is an array', [], ''],
];

/** Paths the schema admits but the containment rule refuses (relativePath's lexical check), each naming its member. */
const OUTSIDE: [string, unknown, string][] = [
  ['an absolute pack path', { ...base, packs: { a: { path: '/etc/p.json' } } }, '/packs/a/path'],
  ['an escaping matrix', { ...base, packs: { a: { path: 'p', matrix: '../m.json' } } }, '/packs/a/matrix'],
  ['an escape through a subdirectory', { ...v2, graphs: { g: { path: 'x/../../g.json' } } }, '/graphs/g/path'],
  ['a backslash escape', { ...v2, graphs: { g: { path: 'g', rows: '..\\r.json' } } }, '/graphs/g/rows'],
  ['a drive-letter path', { ...base, packs: { a: { path: 'C:p.json' } } }, '/packs/a/path'],
];

const bytes = (doc: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(doc));

describe('jpack.json by the runtime schema', () => {
  it.each(CASES)('%s: the schema and the reader agree, and a refusal names the member', (_name, doc, member) => {
    expect(schemaAccepts(doc)).toBe(member === undefined);
    const r = parseJpackConfig(bytes(doc));
    if (member === undefined) expect(r.ok).toBe(true);
    else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.member).toBe(member);
        expect(r.error.message).toContain(`jpack.json ${member === '' ? '(the document)' : member}`);
      }
    }
  });

  it.each(OUTSIDE)('%s is refused by the containment rule, naming the member', (_name, doc, member) => {
    const r = parseJpackConfig(bytes(doc));
    expect(r.ok ? undefined : [r.error.code, r.error.member]).toEqual(['config-path-outside', member]);
  });

  it('refuses a duplicate member name (the strict carrier) and a version gate with their own codes', () => {
    const dup = parseJpackConfig(
      new TextEncoder().encode('{"configVersion":"1","configVersion":"1","packs":{"a":{"path":"p"}}}'),
    );
    expect(dup.ok ? undefined : dup.error.code).toBe('config-json');
    const gate = parseJpackConfig(bytes({ ...v2, configVersion: '1' }));
    expect(gate.ok ? undefined : gate.error.code).toBe('config-version-gate');
    const later = parseJpackConfig(bytes({ configVersion: '4', packs: { a: pack }, later: true }));
    expect(later.ok ? undefined : [later.error.code, later.error.member]).toEqual(['config-version', '/configVersion']);
  });

  it('keeps every member the schema defines', () => {
    const r = parseJpackConfig(bytes(CASES[5]![1]));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.packs.get('a')).toMatchObject({
      path: 'p.json',
      matrix: 'm.json',
      description: 'd',
      expectedVersion: '1.20.0',
    });
    expect([...r.value.packs.get('a')!.facts!.keys()]).toEqual(['/x/y', '', '/a~1b~0']);
    const g = parseJpackConfig(bytes(v3));
    expect(g.ok && g.value.audit).toEqual({ dir: 'audit' });
  });

  it('walks "." and ".." lexically', () => {
    expect(['a', 'a/b', './a', 'a/../b', 'a/./b/..', '.', 'a/..'].map(lexicallyInside)).toEqual(Array(7).fill(true));
    expect(['..', '../a', 'a/../..', 'a/../../b', '/a', '\\a', 'C:a'].map(lexicallyInside)).toEqual(
      Array(7).fill(false),
    );
  });
});
