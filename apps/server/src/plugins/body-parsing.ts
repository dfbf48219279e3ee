import type { FastifyInstance } from 'fastify';
import { noteParsedJson } from './input-hygiene.ts';

/**
 * JSON bodies as Fastify parses them (prototype-poisoning checks included), except that an empty body
 * with `Content-Type: application/json` means "no body" instead of a 400: the family's clients send
 * that header on every request, bodiless DELETEs included. Invalid JSON in a non-empty body stays a
 * 400 (`FST_ERR_CTP_INVALID_JSON_BODY` → `bad_request`, plugins/errors.ts). Register before any route.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, body, (error, parsed) => {
      if (!error) noteParsedJson(request, body, parsed);
      done(error, parsed);
    });
  });
}
