import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { noteParsedJson } from './input-hygiene.ts';

/**
 * The deepest nesting of arrays and objects a body may have. The API's bodies go 5 levels deep at most
 * (an import row's metadata); 1 MiB of `[` used to cost seconds of CPU in the parser and the validation
 * after it, holding every other request (docs/security.md).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays/objects deeper than `max` (brackets inside strings do not count). One
 * pass over the characters, stopping at the first level too deep: cheap next to parsing it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * JSON bodies as Fastify parses them (prototype-poisoning checks included), except that an empty body
 * with `Content-Type: application/json` means "no body" instead of a 400: the family's clients send
 * that header on every request, bodiless DELETEs included. Invalid JSON in a non-empty body stays a
 * 400 (`FST_ERR_CTP_INVALID_JSON_BODY` → `bad_request`, plugins/errors.ts), and so is JSON nested deeper
 * than MAX_JSON_DEPTH, refused before it is parsed. Register before any route.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(new AppError(400, 'bad_request', `JSON nested more than ${MAX_JSON_DEPTH} levels deep`));
      return;
    }
    parseJson(request, body, (error, parsed) => {
      if (!error) noteParsedJson(request, body, parsed);
      done(error, parsed);
    });
  });
}
