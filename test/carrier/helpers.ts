import { readJson, type CarrierError, type JsonValue } from '../../core/carrier/index.js';
import { type ReadJsonOptions } from '../../core/carrier/read-json.js';

const encoder = new TextEncoder();

export const utf8 = (text: string): Uint8Array => encoder.encode(text);
export const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

/** Reads text (UTF-8 encoded) or raw bytes and returns the value, failing the test when it is refused. */
export function accept(input: string | Uint8Array, options?: ReadJsonOptions): JsonValue {
  const r = readJson(typeof input === 'string' ? utf8(input) : input, options);
  if (!r.ok) throw new Error(`expected acceptance, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Reads text or bytes and returns the refusal, failing the test when the input is accepted. */
export function refuse(input: string | Uint8Array, options?: ReadJsonOptions): CarrierError {
  const r = readJson(typeof input === 'string' ? utf8(input) : input, options);
  if (r.ok) throw new Error(`expected a refusal, got a ${r.value.kind}`);
  return r.error;
}
