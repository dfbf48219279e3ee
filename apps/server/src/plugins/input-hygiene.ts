import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors.ts';

/**
 * C0 control characters other than tab, line feed and carriage return. PostgreSQL cannot store U+0000
 * in text at all (the query fails), and none of them belongs in a name, a title, an id or a token.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/**
 * In JSON text a control character can only be written as an escape (raw ones are not valid JSON):
 * `\u0000`–`\u001f`, `\b` or `\f`. Text without any of these (a cheap scan, ~0.5 ms for 3 MB)
 * parses to values without control characters, so its walk (5–25 ms for a 10,000-item import,
 * holding the event loop) is skipped. An escaped backslash before `b`, `f` or `u00…` only costs a walk.
 */
const CONTROL_ESCAPE = /\\(?:u00[01][0-9a-f]|[bf])/i;
const cleanBodies = new WeakMap<FastifyRequest, unknown>();

/** Called by the JSON body parser with the text it parsed and what it made of it. */
export function noteParsedJson(request: FastifyRequest, text: string, parsed: unknown): void {
  if (parsed !== null && typeof parsed === 'object' && !CONTROL_ESCAPE.test(text))
    cleanBodies.set(request, parsed);
}

/** Reported per request at most (the first ones found, in document order). */
const MAX_ISSUES = 10;

export const CONTROL_CHARACTER_MESSAGE =
  'must not contain control characters (U+0000–U+001F other than tab, line feed and carriage return)';

type Path = (string | number)[];

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

const pathOf = (visit: Visit): Path => {
  const path: Path = [];
  for (let v: Visit | undefined = visit; v?.parent; v = v.parent) path.push(v.key!);
  return path.reverse();
};

/**
 * Where `value` (parsed JSON, a query or route parameters) holds a string, or an object key, with a
 * control character. Walks iteratively, building paths only for what it finds: a deeply nested body
 * costs neither stack nor quadratic time.
 */
export function controlCharacterPaths(value: unknown, max = MAX_ISSUES): Path[] {
  const found: Path[] = [];
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && found.length < max) {
    const visit = stack.pop()!;
    const node = visit.value;
    if (typeof node === 'string') {
      if (CONTROL_CHARACTER.test(node)) found.push(pathOf(visit));
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], key: i, parent: visit });
    } else if (node !== null && typeof node === 'object' && !Buffer.isBuffer(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Visit = { value: (node as Record<string, unknown>)[key], key, parent: visit };
        if (CONTROL_CHARACTER.test(key)) found.push(pathOf(child));
        stack.push(child);
      }
    }
  }
  return found.slice(0, max);
}

/**
 * A zod check that fails on every control character, compiled by the same compiler as the routes'
 * schemas: the error it gives is a schema validation error like any other (plugins/errors.ts answers
 * 400 `validation_failed` with one issue per field).
 */
const screen = validatorCompiler({
  schema: z.unknown().superRefine((value, ctx) => {
    for (const path of controlCharacterPaths(value))
      ctx.addIssue({ code: 'custom', path, message: CONTROL_CHARACTER_MESSAGE });
  }),
  method: '',
  url: '',
  httpPart: '',
});

function check(request: FastifyRequest, part: 'params' | 'querystring' | 'body', value: unknown): void {
  const result = screen(value) as { error?: FastifyError['validation'] };
  if (!result.error) return;
  const error = new Error(`${part} ${CONTROL_CHARACTER_MESSAGE}`) as FastifyError;
  error.statusCode = 400;
  error.validation = result.error;
  error.validationContext = part;
  request.log.info({ part }, 'request refused: control characters');
  throw error;
}

/**
 * Strings with control characters are refused (400 `validation_failed`) on every route, on both
 * databases, before any route code, hook or query sees them: route parameters and the query when the
 * request arrives (before authentication), the body once it is parsed. Raw bodies (Buffers, such as
 * the payment callback's, checked by its signature) are left alone. Also refuses HTTP/1.1 requests
 * without `Host` (Node's own check, turned off in plugins/framework-errors.ts, answers without a body).
 * Decision 073. Register before any route.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host)
      throw new AppError(400, 'bad_request', 'The request has no Host header');
    check(request, 'params', request.params);
    check(request, 'querystring', request.query);
  });
  app.addHook('preValidation', async (request) => {
    if (cleanBodies.get(request) === request.body) return;
    check(request, 'body', request.body);
  });
}
