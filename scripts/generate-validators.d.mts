/** The build step's exports, for the test that checks the generated module is in sync (generate-validators.mjs). */
export declare const OUTPUT: string;
export declare function generateValidatorsModule(): Promise<string>;
export declare const GRAPH_OUTPUT: string;
export declare function generateGraphValidatorsModule(): Promise<string>;
