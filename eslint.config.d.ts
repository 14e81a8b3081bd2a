// Types for the one export tests read from eslint.config.js (test/layering/layering.test.ts).
import type { Linter } from 'eslint';
export declare const CORE_PURITY_RULES: Linter.RulesRecord;
declare const config: Linter.Config[];
export default config;
