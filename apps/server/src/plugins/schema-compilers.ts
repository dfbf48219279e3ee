import type { FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;

/*
 * Fastify loads its JSON-schema compilers (Ajv, fast-json-stringify) unless its schema controller is given
 * factories of its own. Every schema here is a zod schema from the contract, so those compilers would only
 * sit in memory (about 2 MiB of an idle server). Fastify's types describe the factories of its own
 * compilers; these are called the same way, hence the casts.
 */

/** The server's: zod validates inputs and serialises (and strips) outputs. */
export const zodSchemaController = {
  compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
} as unknown as SchemaController;

/** For an instance whose routes are never called (the OpenAPI document's): nothing is compiled. */
export const inertSchemaController = {
  compilersFactory: { buildValidator: () => () => () => true, buildSerializer: () => () => JSON.stringify },
} as unknown as SchemaController;
