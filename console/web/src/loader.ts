import { html, type TemplateResult } from 'lit';
import { ApiError } from './api.js';

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
