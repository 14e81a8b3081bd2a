/**
 * A document's value bytes without the JSON whitespace around it (RFC 8259 ws: space, tab, LF, CR). Inside a
 * request the member value starts and ends at the value itself, so this is exactly what the entry's digest covers:
 * a facts file's SHA-256 equals the recorded factsDigest when the file has no leading or trailing whitespace.
 */
export function trimJsonWhitespace(b: Uint8Array): Uint8Array {
  const ws = (x: number | undefined) => x === 0x20 || x === 0x09 || x === 0x0a || x === 0x0d;
  let start = 0;
  let end = b.length;
  while (start < end && ws(b[start])) start += 1;
  while (end > start && ws(b[end - 1])) end -= 1;
  return b.subarray(start, end);
}
