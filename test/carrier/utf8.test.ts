import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../../core/carrier/index.js';
import { firstInvalidUtf8 } from '../../core/carrier/utf8.js';
import { bytes, utf8 } from './helpers.js';

describe('utf8ByteLength', () => {
  it('matches TextEncoder on well-formed text of every UTF-8 length', () => {
    for (const s of ['', 'a', 'é', '€', '😀', 'aé€😀', '\u0000\u007f\u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}']) {
      expect(utf8ByteLength(s), s).toBe(utf8(s).length);
    }
  });

  it('counts a lone surrogate as 3 bytes and a reversed pair as 6', () => {
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(utf8ByteLength('\udc00')).toBe(3);
    expect(utf8ByteLength('\udc00\ud800')).toBe(6);
    expect(utf8ByteLength('a\ud800')).toBe(4);
  });
});

describe('firstInvalidUtf8', () => {
  it('returns -1 for well-formed input, including the largest scalar', () => {
    expect(firstInvalidUtf8(utf8('aé€😀\u{10ffff}'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array(0))).toBe(-1);
  });

  it('points at the lead byte of the first ill-formed sequence', () => {
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0xc3))).toBe(2);
    expect(firstInvalidUtf8(bytes(0x61, 0xe2, 0x82, 0xac, 0xe2, 0x28, 0xa1))).toBe(4);
    expect(firstInvalidUtf8(bytes(0xf4, 0x8f, 0xbf, 0xbf, 0xf4, 0x90, 0x80, 0x80))).toBe(4);
  });
});
