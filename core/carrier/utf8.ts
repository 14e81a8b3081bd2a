/**
 * UTF-8 helpers. The reader validates with a fatal TextDecoder (never U+FFFD replacement, RFC 8259 §8.1); this
 * module only locates the first ill-formed sequence for the error offset and measures UTF-8 lengths.
 */

/**
 * Byte offset of the lead byte of the first ill-formed UTF-8 sequence (RFC 3629 §4 table: no overlongs, no
 * encoded surrogates D800–DFFF, nothing above U+10FFFF, no truncated sequence), or -1 when well-formed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) {
      need = 2;
      lo = 0xa0;
    } else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
    else if (b === 0xed) {
      need = 2;
      hi = 0x9f;
    } else if (b === 0xf0) {
      need = 3;
      lo = 0x90;
    } else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else if (b === 0xf4) {
      need = 3;
      hi = 0x8f;
    } else return i;
    if (i + need >= n) return i; // truncated: the sequence runs past the end
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * UTF-8 byte length of a JavaScript string. A well-formed surrogate pair counts 4 bytes; a lone surrogate (only
 * reachable through the 0.2.0-draft `allowLoneSurrogates` carrier) counts 3, as its generalized UTF-8 (WTF-8)
 * encoding would.
 */
export function utf8ByteLength(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2;
        i++;
        continue;
      }
    }
    bytes += 2;
  }
  return bytes;
}
