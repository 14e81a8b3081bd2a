/** RFC 6901 pointer construction for diagnostics. */

export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + escapeToken(t)).join('');
}

export function childPointer(parent: string, token: string | number): string {
  return parent + '/' + escapeToken(token);
}

/** Tokens of a well-formed pointer (as produced by ajv's instancePath or pointerOf). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}
