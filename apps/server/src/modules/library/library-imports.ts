import type {
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  preParsingAsyncHookHandler,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { IMPORT_MAX_ITEMS, type Endpoint } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { chunksOf, LIBRARY_BATCH_ROWS, yieldToOthers } from './library.ts';

/*
 * Imports of big libraries (decision 072): bodies of up to 10,000 items (several MiB of JSON), checked
 * against the contract slice by slice, so that one import never holds every other request for long.
 */

/** The body limit of the import routes (every other route keeps the 1 MiB default). */
export const IMPORT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const importTooLarge = () =>
  new AppError(
    413,
    'payload_too_large',
    `An import may be at most ${IMPORT_BODY_LIMIT_BYTES / 1024 / 1024} MiB (up to ${IMPORT_MAX_ITEMS.toLocaleString('en')} items); send it in parts`,
  );

const refuseLarge: preParsingAsyncHookHandler = async (request, _reply, payload) => {
  if (Number(request.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT_BYTES) throw importTooLarge();
  return payload;
};

/**
 * Whole-body validation, except that an array of at most IMPORT_MAX_ITEMS items passes as it is: its
 * items are checked by `importItems` in the handler. Anything else gets the contract's own answer.
 */
const arraysPass: FastifySchemaCompiler<FastifySchema> = (route) => {
  const whole = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  if (route.httpPart !== 'body') return whole;
  return (data) => (Array.isArray(data) && data.length <= IMPORT_MAX_ITEMS ? { value: data } : whole(data));
};

/**
 * Call before registering `endpoint`'s route in the same scope: bodies up to IMPORT_BODY_LIMIT_BYTES
 * (a body announced larger gets a 413 before it is read), items checked by `importItems`.
 */
export function acceptImportBodies(app: FastifyInstance, endpoint: Endpoint): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== endpoint.path || route.method !== endpoint.method) return;
    route.bodyLimit = IMPORT_BODY_LIMIT_BYTES;
    const hooks =
      route.preParsing === undefined
        ? []
        : Array.isArray(route.preParsing)
          ? route.preParsing
          : [route.preParsing];
    route.preParsing = [refuseLarge, ...hooks];
    route.validatorCompiler = arraysPass;
  });
}

/**
 * An import body's items checked against the contract's item schema a slice at a time, yielding in
 * between. When one is invalid, the whole body is validated as the contract says, so the 400 answer
 * (`validation_failed` with every issue and its path) is the one any other route gives.
 */
export async function importItems<T>(body: unknown, endpoint: Endpoint, item: z.ZodType<T>): Promise<T[]> {
  const items: T[] = [];
  for (const [index, slice] of chunksOf(body as unknown[], LIBRARY_BATCH_ROWS).entries()) {
    if (index > 0) await yieldToOthers();
    for (const value of slice) {
      const result = item.safeParse(value);
      if (!result.success) throw invalid(body, endpoint);
      items.push(result.data);
    }
  }
  return items;
}

function invalid(body: unknown, endpoint: Endpoint): Error {
  const check = validatorCompiler({
    schema: endpoint.body!,
    method: endpoint.method,
    url: endpoint.path,
    httpPart: 'body',
  });
  const result = check(body) as { error?: unknown[] };
  return Object.assign(new Error('body is not valid'), {
    statusCode: 400,
    validation: result.error ?? [],
    validationContext: 'body',
  });
}
