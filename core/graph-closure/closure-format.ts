/**
 * The closure record's format name, in a module of its own: the identity (closure-identity.ts) and its readers in a
 * verifier (@docket/verify, a browser) need it without the graph runtime that closure.ts derives closures with.
 */
export const CLOSURE_FORMAT = 'docket.graph-closure/1';
