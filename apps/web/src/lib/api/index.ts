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
  isMissingNewerRoute,
  isNotFound,
  type ApiErrorCode,
  type ErrorKey,
  type ApiIssue,
} from './errors.ts';
export { fetchExternalText, mediaUrlRefusal, ping } from './external.ts';
// Types only: the stream reader (and its SSE parser) is imported from './stream.ts' by the lazy code that
// reads streams (the sync session, the player's scrape), so the first view does not carry it.
export type { StreamEvent, StreamEventOf, StreamRoute } from './stream.ts';
