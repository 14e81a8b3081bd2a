/** core/project: the reference runtime's project (jpack.json) and the expected results it keeps beside its documents. */
export * from './jpack-config.js';
export * from './case-report.js';
export { runPackMatrix } from './pack-matrix.js';
export { runGraphRows } from './graph-rows.js';
