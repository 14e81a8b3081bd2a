/** The package build's exports (scripts/build-packages.mjs), for the tests of the packages and their API reports. */
export declare const ROOT: string;
export declare const PACKAGES_DIR: string;
export declare const OUT_DIR: string;
export declare const TARBALL_DIR: string;
export declare class PackageBuildError extends Error {}
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly type?: string;
  readonly exports?: unknown;
  readonly types?: string;
  readonly bin?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly [member: string]: unknown;
}
export declare function packageFolders(packagesDir?: string): string[];
export declare function readTemplate(folder: string, packagesDir?: string): PackageManifest;
/** `outRoot`: where each `<folder>/` is built (default dist/packages/); `assets: false` leaves out the prebuilt handlers. */
export declare function buildPackages(
  folders: readonly string[],
  options?: { readonly outRoot?: string; readonly assets?: boolean },
): Promise<{ manifest: PackageManifest; dir: string }[]>;
/** buildPackages of one folder. */
export declare function buildPackage(
  folder: string,
  options?: { readonly outRoot?: string; readonly assets?: boolean },
): Promise<{ manifest: PackageManifest; dir: string }>;
export declare function hasApiReport(folder: string): boolean;
export declare function packPackage(dir: string): string;
export declare function builtApiReport(folder: string, manifest: PackageManifest, dir: string): string;
