export {
  api,
  accountBaseUrl,
  type ApiInput,
  type ApiOutput,
  type CallInput,
  type CallOptions,
  type RawAnswer,
} from './client.ts';
export {
  ApiError,
  codeKey,
  errorKey,
  isNotFound,
  type ApiErrorCode,
  type ErrorKey,
  type ApiIssue,
} from './errors.ts';
export { fetchExternalText, mediaUrlRefusal, ping } from './external.ts';
export { STOP, stream, type StreamEvent, type StreamEventOf, type StreamRoute } from './stream.ts';
