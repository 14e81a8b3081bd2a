/** The API report writer (scripts/api-report.mjs). */
export declare function apiReport(name: string, entries: readonly { entry: string; file: string }[]): string;
