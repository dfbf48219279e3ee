/**
 * The contract's schemas the web's forms build on, from the barrel (decision 076): web code takes contract
 * schemas from here only (lint), contract values from `@marquee/contract/values`. In a browser the
 * contract's own `z.ts` puts zod in jitless mode before any schema exists (no `new Function` probe under
 * the CSP); lib/zod.ts does the same for the web's own schemas.
 */
export { CustomerRegisterBody, PatchSessionBody, ProfileInput } from '@marquee/contract';
