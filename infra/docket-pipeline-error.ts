/** A DocketPipeline asked for something it does not have; `code` is stable, the message says what to change. */
export type DocketPipelineErrorCode = 'unknown-route-queue' | 'grantee-not-attachable';

export class DocketPipelineError extends Error {
  readonly code: DocketPipelineErrorCode;
  constructor(code: DocketPipelineErrorCode, message: string) {
    super(message);
    this.name = 'DocketPipelineError';
    this.code = code;
  }
}
