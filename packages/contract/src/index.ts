export * from './endpoint.ts';
export * from './errors.ts';
export * from './media.ts';
export * from './metadata.ts';
export * from './search.ts';
export * from './discover.ts';
export * from './calendar.ts';
export * from './runtime-config.ts';

export const APP_VERSION = '4.7.0';
