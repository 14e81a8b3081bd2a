// ESLint with type information (docs/adr/0150-eslint-next-to-prettier.md). Prettier owns layout; this owns meaning.
// The core/ block is the determinism rule (README "Determinism"): no clock, randomness or environment inside core/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Reading the environment, a clock or randomness inside core/: each is passed in through a parameter instead. */
export const CORE_PURITY_RULES = {
  'no-restricted-properties': [
    'error',
    { object: 'process', property: 'env', message: 'core/ is pure: configuration is passed in, never read.' },
    { object: 'Date', property: 'now', message: 'core/ is pure: time is a parameter.' },
    { object: 'Math', property: 'random', message: 'core/ is pure: randomness is a parameter.' },
    { object: 'crypto', property: 'randomUUID', message: 'core/ is pure: randomness is a parameter.' },
    { object: 'crypto', property: 'randomBytes', message: 'core/ is pure: randomness is a parameter.' },
    { object: 'crypto', property: 'getRandomValues', message: 'core/ is pure: randomness is a parameter.' },
    { object: 'performance', property: 'now', message: 'core/ is pure: time is a parameter.' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date']", message: 'core/ is pure: time is a parameter.' },
    { selector: "CallExpression[callee.name='Date']", message: 'core/ is pure: time is a parameter.' },
  ],
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'core/ is pure: no process, environment or clock.' },
    { name: 'performance', message: 'core/ is pure: time is a parameter.' },
  ],
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'node:crypto',
          importNames: ['randomUUID', 'randomBytes', 'randomInt', 'getRandomValues', 'webcrypto'],
          message: 'core/ is pure: randomness is a parameter.',
        },
        { name: 'node:process', message: 'core/ is pure: configuration is passed in, never read.' },
        { name: 'node:perf_hooks', message: 'core/ is pure: time is a parameter.' },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'console/dist/**',
      'cdk.out/**',
      'node_modules/**',
      '.docket/**',
      'bin/**',
      'test/layering/fixtures/**',
    ],
  },
  js.configs.recommended,
  // The syntactic recommended set plus chosen type-aware rules (ADR 0150): the whole type-checked set mostly flags
  // `any` from JSON.parse and ajv at the untrusted-input edges, which the readers already check by hand.
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error: an append or a send that fails must fail the step.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Dead code and dead imports; a leading underscore marks a parameter an interface requires but we ignore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `import type` for types only: the emitted JavaScript then shows the real runtime dependencies.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A switch over a closed union must name every member, so a new code that is not handled does not compile.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, allowDefaultCaseForExhaustiveSwitch: true },
      ],
      // Errors are typed values (README "Style"): throwing a string loses the stack and the code.
      '@typescript-eslint/only-throw-error': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  { files: ['core/**/*.ts'], rules: CORE_PURITY_RULES },
  {
    // Tests and benches build deliberately malformed values; `any` there is the point, not a leak.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // Exact-number tests write literals past 2^53 on purpose: they check what the reader does with them.
      'no-loss-of-precision': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly' } },
  },
);
