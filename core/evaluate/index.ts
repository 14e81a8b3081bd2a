export { compilePack } from './compile.js';
export type { CompiledPack } from './compiled-pack.js';
export { evaluateCompiled, evaluateParsed } from './evaluate.js';
export { evaluateDocuments } from './documents.js';
export { canonicalDisposition } from './disposition.js';
export { DEFAULT_WORK_BUDGET, MAX_WORK_BUDGET } from './limits.js';
export { EVALUATOR_IDENTITY } from './identity.js';
export * from './types.js';
