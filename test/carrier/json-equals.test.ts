import { describe, expect, it } from 'vitest';
import { fromPlain, jsonEquals } from '../../core/carrier/index.js';
import { accept } from './helpers.js';

const eq = (a: string, b: string): boolean => jsonEquals(accept(a), accept(b));

describe('jsonEquals is §7.4 type-preserving equality', () => {
  it('equates null with null only', () => {
    expect(eq('null', 'null')).toBe(true);
    for (const other of ['false', '0', '""', '[]', '{}']) expect(eq('null', other), other).toBe(false);
  });

  it('compares Booleans and strings by value without coercion', () => {
    expect(eq('true', 'true')).toBe(true);
    expect(eq('true', 'false')).toBe(false);
    expect(eq('true', '1')).toBe(false);
    expect(eq('"1"', '1')).toBe(false);
    expect(eq('"a"', '"\\u0061"')).toBe(true);
    expect(eq('"a"', '"A"')).toBe(false);
    expect(eq('"1.0"', '"1.00"')).toBe(false); // decimal strings are strings under equals (§7.4)
  });

  it('compares numbers by exact mathematical value', () => {
    expect(eq('1', '1.0')).toBe(true);
    expect(eq('1e0', '10e-1')).toBe(true);
    expect(eq('-0', '0')).toBe(true);
    expect(eq('9007199254740993', '9007199254740992')).toBe(false);
    expect(eq('1e999999999', '10e999999998')).toBe(true);
    expect(eq('1e999999999', '2e999999999')).toBe(false);
  });

  it('compares arrays recursively and in order', () => {
    expect(eq('[1,[2,"x"]]', '[1.0,[2e0,"x"]]')).toBe(true);
    expect(eq('[1,2]', '[2,1]')).toBe(false);
    expect(eq('[1,2]', '[1,2,3]')).toBe(false);
    expect(eq('[]', '{}')).toBe(false);
  });

  it('compares objects by member name and value regardless of member order', () => {
    expect(eq('{"a":1,"b":[true]}', '{"b":[true],"a":1.00}')).toBe(true);
    expect(eq('{"a":1}', '{"a":1,"b":2}')).toBe(false);
    expect(eq('{"a":1,"b":2}', '{"a":1}')).toBe(false);
    expect(eq('{"a":1}', '{"b":1}')).toBe(false);
    expect(eq('{"a":{"x":null}}', '{"a":{"x":false}}')).toBe(false);
  });

  it('does not find members through the prototype chain', () => {
    expect(eq('{"constructor":1}', '{"toString":1}')).toBe(false);
    expect(eq('{"__proto__":{}}', '{"__proto__":{}}')).toBe(true);
    expect(eq('{"__proto__":{}}', '{"__proto__":[]}')).toBe(false);
  });

  it('treats trees from the reader and from fromPlain alike', () => {
    expect(jsonEquals(accept('{"a":[1,"é",null]}'), fromPlain({ a: [1, 'é', null] }))).toBe(true);
    expect(jsonEquals(accept('{"a":[1,"é",null]}'), fromPlain({ a: [1, 'e', null] }))).toBe(false);
  });
});
