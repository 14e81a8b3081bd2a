/**
 * `docket replay` (docs/replay.md). The command lives in ./replay-entries.ts, over the pure
 * core/replay; this file is the name the CLI dispatcher loads (cli/main.ts maps a command to its file).
 */
export { run, stackDeps, type ReplayDeps } from './replay-entries.js';
