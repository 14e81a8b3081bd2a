/**
 * Builds the offline verification page as ONE self-contained file, console/dist/offline.html (all JavaScript and
 * CSS inlined by vite-plugin-singlefile; docs/adr/0186-offline-verification-page.md). After the build the page's
 * Content-Security-Policy is completed with the SHA-256 of each inline script and style, so nothing else can run.
 * Build: npm run build:offline (part of npm run build).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const here = import.meta.dirname;
const OUT_DIR = join(here, '..', 'dist');

/** Every inline <script> and <style> body, hashed as CSP source expressions ('sha256-…'). */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const re = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g');
  return [...html.matchAll(re)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

/** No network (connect-src 'none'), nothing but the page's own inline code, no HTML sinks (Trusted Types). */
export function offlineCsp(html: string): string {
  return [
    "default-src 'none'",
    `script-src ${inlineHashes(html, 'script').join(' ')}`,
    `style-src ${inlineHashes(html, 'style').join(' ')}`,
    "connect-src 'none'",
    "img-src 'none'",
    "font-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

function completeCsp(): Plugin {
  return {
    name: 'docket-offline-csp',
    apply: 'build',
    closeBundle() {
      const file = join(OUT_DIR, 'offline.html');
      const html = readFileSync(file, 'utf8');
      if (!html.includes('__DOCKET_CSP__')) throw new Error('offline.html has no CSP placeholder');
      writeFileSync(file, html.replace('__DOCKET_CSP__', offlineCsp(html)));
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  plugins: [viteSingleFile({ removeViteModuleLoader: true }), completeCsp()],
  build: {
    outDir: OUT_DIR,
    // The console's own build writes beside this file: never wipe it.
    emptyOutDir: false,
    modulePreload: false,
    target: 'es2022',
    rollupOptions: { input: join(here, 'offline.html') },
  },
});
