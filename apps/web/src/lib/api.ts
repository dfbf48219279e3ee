/**
 * Kept for modules not yet moved to `lib/api/` (features/settings/email-sections.tsx); new code imports
 * from './api/index.ts'.
 */
export { ApiError, isNotFound } from './api/index.ts';
