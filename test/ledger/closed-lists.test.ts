/**
 * One closed list per enum: each code list in core is the source of its TypeScript type and of its check, and the
 * published schema's enum must say exactly the same (same members, same order), so a code added in one place and
 * forgotten in another fails here. Replay's handling of every refusal code is checked by the compiler instead
 * (`const unhandled: never` in core/ledger/replay/refusal.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVALUATION_ERROR_CLASSES } from '../../core/evaluate/types.js';
import { ENTRY_KINDS, REFUSAL_CODES } from '../../core/ledger/entries/entry-types.js';

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'ledger-entry.schema.json'), 'utf8'),
) as { properties: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }> };

describe('closed lists and the ledger entry schema', () => {
  it('the schema enum of refusal.code is REFUSAL_CODES', () => {
    expect(schema.properties.refusal?.properties?.code?.enum).toEqual([...REFUSAL_CODES]);
  });

  it('the schema enum of error.class is the §8.4 class list', () => {
    expect(schema.properties.error?.properties?.class?.enum).toEqual([...EVALUATION_ERROR_CLASSES]);
  });

  it('the schema enum of kind is ENTRY_KINDS', () => {
    expect(schema.properties.kind?.enum).toEqual([...ENTRY_KINDS]);
  });
});
