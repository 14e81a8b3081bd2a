/** The pack step's exports, for the tarball test (pack-cdk-cli.mjs). */
export declare const ROOT: string;
export declare const OUT_DIR: string;
export declare const TARBALL_DIR: string;
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly [field: string]: unknown;
}
export declare function writePrebuiltHandlers(outDir: string): void;
export declare function copyRepositoryLayout(template: unknown, outDir: string): void;
export declare function buildPackage(folder: string): Promise<{ manifest: PackageManifest; dir: string }>;
export declare function packPackage(dir: string): string;
