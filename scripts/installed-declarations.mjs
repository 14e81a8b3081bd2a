/**
 * A TypeScript compiler host that parses each installed declaration file (under node_modules: TypeScript's lib
 * files, @types/node, aws-cdk-lib's declarations) once per process, shared by every program the package build and
 * the API reports create, as TypeScript's own services share source files between programs. An installed file does
 * not change while a process runs; the repository's own sources and the built declarations are read afresh.
 */
import ts from 'typescript';

const installed = new Map();
const INSTALLED = /[\\/]node_modules[\\/].*\.d\.[cm]?ts$/;

/** `ts.createCompilerHost(options)`, its getSourceFile answering installed declaration files from the shared parse. */
export function compilerHostSharingInstalled(options) {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
    if (fresh === true || !INSTALLED.test(fileName)) return parse(fileName, languageVersion, onError, fresh);
    // The parse depends on the language version and the file's module format, both in `languageVersion`.
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    let file = installed.get(key);
    if (file === undefined) {
      file = parse(fileName, languageVersion, onError);
      if (file !== undefined) installed.set(key, file);
    }
    return file;
  };
  return host;
}
