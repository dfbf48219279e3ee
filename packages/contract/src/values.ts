/**
 * The contract's values that need no schema: route tables, paths, limits, languages and the pure rules
 * (`@marquee/contract/values`). The web app takes its run-time values from here, never from the barrel:
 * the barrel re-exports every schema module, and a bundler keeps each re-exported module that anything
 * uses beside the barrel, so one form using a schema would pull all of them (and zod) into the first
 * view. With the barrel imported for types only, a schema a lazy form uses stays in that form's chunk.
 */
export * from './routes.ts';
export * from './api-paths.ts';
export * from './account-paths.ts';
export * from './customer-paths.ts';
export * from './job-routes.ts';
export * from './device-link-routes.ts';
export * from './passkey-routes.ts';
export * from './party-routes.ts';
export * from './segment-routes.ts';
export * from './cast-routes.ts';
export * from './device-name.ts';
export * from './source-paths.ts';
export * from './sync-rules.ts';
export * from './sync-conformance.ts';
export * from './media.ts';
export * from './release.ts';
export * from './content-ratings.ts';
export * from './languages.ts';
export * from './version.ts';
