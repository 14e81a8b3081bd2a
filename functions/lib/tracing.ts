/**
 * X-Ray tracing of the functions (docs/adr/0480-functions-traced-with-powertools-tracer.md): Powertools Tracer, one
 * per function. Each handler runs in a `## handler` subsegment annotated with the cold start and the service, and the
 * AWS SDK clients it calls through are captured, so every DynamoDB, SQS and SNS call is a subsegment and each SQS send
 * carries the trace header on to the next function (SQS hands it over as the AWSTraceHeader system attribute): one
 * request is followed from the intake through sequence, evaluate and deliver to its handoffs and its notification.
 *
 * Outside Lambda (the local stack, tests, the CLI) the Tracer is off by itself: Powertools enables it only where
 * AWS_EXECUTION_ENV is set (and never under POWERTOOLS_TRACE_ENABLED=false), and an off Tracer returns the clients
 * it is given unchanged and opens no segment.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';

export type Handler<A extends unknown[], R> = (...args: A) => Promise<R>;

export function functionTracer(serviceName: string): Tracer {
  return new Tracer({ serviceName });
}

/** `handle` in a `## handler` subsegment of the invocation's segment; errors are recorded on it and rethrown. */
export function traced<A extends unknown[], R>(tracer: Tracer, handle: Handler<A, R>): Handler<A, R> {
  if (!tracer.isTracingEnabled()) return handle;
  return async (...args) => {
    const parent = tracer.getSegment();
    const sub = parent?.addNewSubsegment('## handler');
    if (sub !== undefined) tracer.setSegment(sub);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
    try {
      return await handle(...args);
    } catch (e) {
      tracer.addErrorAsMetadata(e as Error);
      throw e;
    } finally {
      sub?.close();
      if (parent !== undefined) tracer.setSegment(parent);
    }
  };
}
