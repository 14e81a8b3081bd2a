/** The package build's extras (scripts/package-extras.mjs). */
export declare function writePrebuiltHandlers(outDir: string): void;
export declare function copyRepositoryLayout(template: unknown, outDir: string): void;
