/**
 * CloudFormation output ids, which the stack emits (docket-stack.ts) and the configuration checks for clashes
 * (config.ts). Its own file, importing nothing, so config.ts and names.ts do not import each other.
 */
/** CloudFormation output id of a route queue URL: "RouteQueueUrl" + the key in PascalCase (ids allow [A-Za-z0-9]). */
export function routeOutputId(key: string): string {
  return (
    'RouteQueueUrl' +
    key
      .split('-')
      .map((w) => (w.length > 0 ? w[0]!.toUpperCase() + w.slice(1) : ''))
      .join('')
  );
}
