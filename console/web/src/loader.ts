import { html, type TemplateResult } from 'lit';
import { ApiError, getJson } from './api.js';

/** The state of one API read: loading, failed (with the server's words), or loaded. */
export type Load<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'ok'; readonly value: T };

export function failure(e: unknown): Load<never> {
  if (e instanceof ApiError) {
    const b = e.body as { error?: string; detail?: string } | null;
    return {
      state: 'error',
      message: `${e.message}${b?.error ? `: ${b.error}` : ''}${b?.detail ? ` (${b.detail})` : ''}`,
    };
  }
  return { state: 'error', message: e instanceof Error ? e.message : String(e) };
}

export function shown<T>(l: Load<T>, body: (v: T) => TemplateResult): TemplateResult {
  if (l.state === 'loading') return html`<p class="muted" role="status">Loading…</p>`;
  if (l.state === 'error') return html`<p class="error" role="alert">${l.message}</p>`;
  return body(l.value);
}

/**
 * Reads one API path into `set`: loading, then the value or the failure, unless `current()` says the page has moved
 * on to another read meanwhile. Resolves to the value (null on failure or when no longer current).
 */
export async function load<T>(
  path: string,
  set: (l: Load<T>) => void,
  current = (): boolean => true,
): Promise<T | null> {
  set({ state: 'loading' });
  try {
    const value = await getJson<T>(path);
    if (!current()) return null;
    set({ state: 'ok', value });
    return value;
  } catch (e) {
    if (current()) set(failure(e));
    return null;
  }
}
