import { describe, expect, it } from 'vitest';
import { readJson, toPlain } from '../../core/carrier/index.js';

const enc = new TextEncoder();
describe('readJson smoke', () => {
  it('reads a small document and agrees with JSON.parse on it', () => {
    const text = '{"a":[1,2.5,"x\\u00e9",true,null,{"b":false}],"c":"é"}';
    const r = readJson(enc.encode(text));
    expect(r.ok).toBe(true);
    if (r.ok) expect(JSON.parse(JSON.stringify(toPlain(r.value)))).toEqual(JSON.parse(text));
  });
});
