/** RFC 6901 pointer construction for diagnostics. */
import { escapeToken } from '../carrier/pointer.js';

export function childPointer(parent: string, token: string | number): string {
  return parent + '/' + escapeToken(String(token));
}
