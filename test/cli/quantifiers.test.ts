import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packWith } from '../quantifiers/helpers.js';
import { cli, lines } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-q-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PACK = join(dir, 'pack.json');
const FACTS = join(dir, 'facts.json');
writeFileSync(
  PACK,
  JSON.stringify(
    packWith({ op: 'exists', path: '/xs', where: { op: 'fact', path: '/ok', operator: 'equals', value: true } }),
  ),
);
writeFileSync(FACTS, '{"xs":[{"ok":false},{"ok":true}]}');
const FLAG = '--rfc0008-quantifiers';

describe('the --rfc0008-quantifiers flag', () => {
  it('validate refuses a quantifier pack without the flag and accepts it with the flag', async () => {
    const without = await cli(['validate', PACK]);
    expect(without.code).toBe(1);
    expect(without.out).toMatch(/JPS-SCHEMA-CONDITION-OP/);
    const withFlag = await cli(['validate', PACK, FLAG]);
    expect(withFlag.code).toBe(0);
    expect(withFlag.out).toMatch(/conformant \(specVersion 0\.3\.0/);
  });
  it('evaluate answers with the flag and reports pack-not-conformant without it', async () => {
    const without = await cli(['evaluate', '--pack', PACK, '--facts', FACTS]);
    expect(without.code).toBe(2);
    expect(JSON.parse(without.out).error.class).toBe('pack-not-conformant');
    const withFlag = await cli(['evaluate', '--pack', PACK, '--facts', FACTS, FLAG]);
    expect(withFlag.code).toBe(0);
    // node 1 + compile "/xs" 3 + resolve "/xs" 3, compile "/ok" 3, then per element 1 + resolve 3 + V(true) 5 +
    // V(selected): false 6, true 5 → 7 + 3 + 15 + 14 = 39
    expect(withFlag.out).toBe(
      '{"disposition":{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]},"work":39}\n',
    );
  });
  it('evaluate --batch takes the flag for every line', async () => {
    const batch = '{"facts":{"xs":[]}}\n{"facts":{"xs":[{"ok":true}]}}\n';
    const r = await cli(['evaluate', '--pack', PACK, '--batch', '-', FLAG], batch);
    expect(r.code).toBe(0);
    expect(lines(r.out).map((l) => JSON.parse(l).disposition.outcomeId)).toEqual(['no', 'yes']);
    const without = await cli(['evaluate', '--pack', PACK, '--batch', '-'], batch);
    expect(lines(without.out).every((l) => JSON.parse(l).error.class === 'pack-not-conformant')).toBe(true);
  });
});
