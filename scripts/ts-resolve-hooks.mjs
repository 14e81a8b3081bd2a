// Lets Node run the TypeScript sources directly for a build step: a relative `./x.js` import resolves to `./x.ts`
// when only the TypeScript file exists (the sources import their siblings by their compiled names). Node ≥ 22.18
// strips the types itself.
import { registerHooks } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
      const ts = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
      const js = new URL(specifier, context.parentURL);
      if (!existsSync(fileURLToPath(js)) && existsSync(fileURLToPath(ts))) return next(ts.href, context);
    }
    return next(specifier, context);
  },
});
