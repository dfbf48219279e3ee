import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { CustomerAuthResponse, CustomerUser } from '@marquee/contract';
import type { ScryptCost } from '../src/modules/customers/password-hasher.ts';

/** Cheap scrypt for suites that create many accounts (the real cost is tested on its own). */
export const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

export const PASSWORD = 'correct horse battery';

export interface Customer extends CustomerAuthResponse {
  email: string;
  password: string;
  headers: { authorization: string };
}

export const uniqueEmail = (prefix = 'viewer') => `${prefix}-${randomBytes(5).toString('hex')}@example.org`;

export async function registerCustomer(
  server: FastifyInstance,
  input: { email?: string; fullname?: string; password?: string } = {},
): Promise<{ user: CustomerUser; email: string; password: string }> {
  const email = input.email ?? uniqueEmail();
  const password = input.password ?? PASSWORD;
  const res = await server.inject({
    method: 'POST',
    url: '/customers',
    payload: { fullname: input.fullname ?? 'Ada Lovelace', email, password },
  });
  if (res.statusCode !== 200) throw new Error(`POST /customers ${res.statusCode} ${res.body}`);
  return { user: (JSON.parse(res.body) as { user: CustomerUser }).user, email, password };
}

export async function loginCustomer(
  server: FastifyInstance,
  email: string,
  password = PASSWORD,
): Promise<Customer> {
  const res = await server.inject({
    method: 'POST',
    url: '/customers/auth',
    headers: { 'user-agent': 'vitest' },
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`POST /customers/auth ${res.statusCode} ${res.body}`);
  const body = JSON.parse(res.body) as CustomerAuthResponse;
  return { ...body, email, password, headers: { authorization: `Bearer ${body.token}` } };
}

/** Registers and signs in a new email account. */
export async function signUp(
  server: FastifyInstance,
  input: { email?: string; fullname?: string } = {},
): Promise<Customer> {
  const { email, password } = await registerCustomer(server, input);
  return loginCustomer(server, email, password);
}

/** One request as a signed-in client sends it: method, URL, headers and an optional JSON body. */
export type Caller = (
  method: string,
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

export const callOn = (
  server: FastifyInstance,
  ...[method, url, headers, payload]: Parameters<Caller>
): Promise<LightMyRequestResponse> =>
  server.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
