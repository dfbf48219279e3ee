import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** One problem zod found in a form: where, which check (zod's issue code) and the value there. */
export interface FormIssue {
  /** Dotted field path ('email', 'account.deviceName'). */
  path: string;
  /** zod's issue code: too_small, too_big, invalid_format, custom … */
  code: string;
  value: unknown;
}

const valueAt = (values: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
      values,
    );

/**
 * A react-hook-form resolver from a zod schema whose error messages are i18n keys: `keyOf` maps each
 * issue (path, code, value) to a key, so the contract's schemas give the rules and never zod's (or the
 * contract's) English. Resolves to the schema's output (trimmed values).
 */
export function keyedZodResolver<In extends FieldValues, Out, Key extends string>(
  schema: z.ZodType<Out, In>,
  keyOf: (issue: FormIssue) => Key,
): Resolver<In, unknown, Out> {
  const base = zodResolver(schema) as unknown as Resolver<In, unknown, Out>;
  return async (values, context, options) => {
    const result = await base(values, context, options);
    rekey(result.errors, '', values, keyOf);
    return result;
  };
}

function rekey(errors: FieldErrors, prefix: string, values: unknown, keyOf: (i: FormIssue) => string) {
  for (const [name, error] of Object.entries(errors)) {
    if (!error || typeof error !== 'object') continue;
    const path = prefix ? `${prefix}.${name}` : name;
    const leaf = error as { type?: unknown; message?: unknown };
    if (typeof leaf.type === 'string' && typeof leaf.message === 'string') {
      leaf.message = keyOf({ path, code: leaf.type, value: valueAt(values, path) });
    } else {
      rekey(error as FieldErrors, path, values, keyOf);
    }
  }
}

/**
 * The first key, in `order`, among the form's errors (the one message a form shows at a time). `order`
 * lists every key the form's resolver gives, so the result is a catalog key the types know.
 */
export function firstErrorKey<Key extends string>(errors: FieldErrors, order: readonly Key[]): Key | null {
  const keys = new Set<string>();
  const collect = (e: FieldErrors) => {
    for (const error of Object.values(e)) {
      if (!error || typeof error !== 'object') continue;
      const leaf = error as { message?: unknown; type?: unknown };
      if (typeof leaf.type === 'string' && typeof leaf.message === 'string') keys.add(leaf.message);
      else collect(error as FieldErrors);
    }
  };
  collect(errors);
  return order.find((key) => keys.has(key)) ?? null;
}
