import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import notesSchema from '../../schema/checkpoint-notes.schema.json' with { type: 'json' };
import keySchema from '../../schema/witness-key.schema.json' with { type: 'json' };
import policySchema from '../../schema/witness-policy.schema.json' with { type: 'json' };
import stateSchema from '../../schema/witness-state.schema.json' with { type: 'json' };
import { join } from 'node:path';
import { WITNESS_POLICY } from '../../conformance/ledger/witness-scenarios.js';
import { writeWitnessKey } from '../../cli/witness/witness-key-file.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { WITNESS } from './fixtures.js';
import { witnessPolicyDocument } from '../../core/ledger/witness/witness-policy.js';

const ajv = new Ajv2020Module.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
const corpus = join(
  import.meta.dirname,
  '..',
  '..',
  'conformance',
  'ledger',
  'witness',
  'equivocation-fork-later-size',
);
const json = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

describe('the witness schemas', () => {
  it('accept what the serializers emit and reject an extra member', () => {
    const cases: [object, Record<string, unknown>][] = [
      [policySchema, JSON.parse(WITNESS_POLICY) as Record<string, unknown>],
      [
        policySchema,
        JSON.parse(witnessPolicyDocument({ quorum: 1, maxAgeSeconds: 60, witnesses: [WITNESS] }, 'vkey')) as Record<
          string,
          unknown
        >,
      ],
      [stateSchema, json(join(corpus, 'witness-state.json'))],
      [notesSchema, json(join(corpus, 'cosigned.json'))],
    ];
    const dir = mkdtempSync(join(tmpdir(), 'docket-wk-'));
    writeWitnessKey(join(dir, 'k.json'), WITNESS);
    cases.push([keySchema, json(join(dir, 'k.json'))]);
    for (const [schema, doc] of cases) {
      const valid = ajv.compile(schema);
      expect(valid(doc), JSON.stringify(valid.errors)).toBe(true);
      expect(valid({ ...doc, extra: 1 })).toBe(false);
    }
    // A witness as a note-signature vkey (type 0x01) is not a cosignature vkey.
    const v = ajv.compile(policySchema);
    const one = 'w+00000000+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
    expect(v({ format: 'docket.witness-policy/2', quorum: 1, maxAgeSeconds: 1, witnesses: [one] })).toBe(false);
  });
});
