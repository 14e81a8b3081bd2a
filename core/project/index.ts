/** core/project: the reference runtime's project (jpack.json) and the expected results it keeps beside its documents. */
export * from './jpack-config.js';
