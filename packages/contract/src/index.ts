export * from './api-paths.ts';
export * from './endpoint.ts';
export * from './errors.ts';
export * from './media.ts';
export * from './metadata.ts';
export * from './search.ts';
export * from './discover.ts';
export * from './calendar.ts';
export * from './runtime-config.ts';
export * from './library-rules.ts';
export * from './account-paths.ts';
export * from './accounts.ts';
export * from './sync-rules.ts';
export * from './sync.ts';
export * from './source-paths.ts';
export * from './sources.ts';

export const APP_VERSION = '4.7.0';
