/**
 * The audit console's build (docs/adr/0180-console-front-end-stack.md): Vite bundles the Lit app in console/web into
 * console/dist (index.html + hashed assets), served by `docket console`. Nothing is fetched from a CDN; the
 * offline page is built by its own config into the same folder, so this build never empties it.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: false,
    // No inline script or style may reach the page: the server's Content-Security-Policy forbids both.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
