/**
 * The console's HTTP rules (ADR 0181): read-only (GET and HEAD; every other method 405), a strict
 * Content-Security-Policy (no inline script, no eval, nothing from another origin), no framing, no MIME sniffing,
 * and a Host check so a page on another site cannot reach the console through DNS rebinding.
 */
import { createHash } from 'node:crypto';

export const ALLOWED_METHODS = 'GET, HEAD';

export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The single-file offline page carries its script and style inline, so its policy allows exactly those bytes by
 * hash (CSP3 hash sources) and no network at all (connect-src 'none': it verifies with no server).
 */
export function offlineCsp(html: string): string {
  const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1] ?? '').filter((s) => s);
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '');
  return [
    "default-src 'none'",
    `script-src ${scripts.length ? scripts.map(hashOf).join(' ') : "'none'"}`,
    `style-src ${styles.length ? styles.map(hashOf).join(' ') : "'none'"}`,
    "img-src 'self' data:",
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True when the Host header names the address the console listens on (or localhost for a loopback bind). */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number): boolean {
  if (hostHeader === undefined) return false;
  const allowed = new Set([`${boundHost}:${port}`]);
  if (boundHost.includes(':')) allowed.add(`[${boundHost}]:${port}`);
  if (boundHost === '127.0.0.1' || boundHost === '::1' || boundHost === 'localhost') {
    allowed.add(`localhost:${port}`);
    allowed.add(`127.0.0.1:${port}`);
    allowed.add(`[::1]:${port}`);
  }
  // An explicit --host 0.0.0.0 serves any name the operator chose to expose it under.
  if (boundHost === '0.0.0.0' || boundHost === '::') return true;
  return allowed.has(hostHeader.toLowerCase());
}
