import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_LINK_TTL_MS, type DeviceLinkCreated, type DeviceLinkPollResponse } from '@marquee/contract';
import { loginCustomer, PASSWORD, signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/* Signing in on another device with a code (decision 105). */

describe(`sign in with a code (${testDialect})`, () => {
  let t: SyncTestApp;
  let owner: Customer;

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { passwordCost: TEST_PASSWORD_COST } } });
    owner = await signUp(t.server, { fullname: 'Parent' });
  });
  afterAll(async () => t.close());

  const ask = async (device?: string) => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/device-links',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' },
      payload: device ? { device } : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as DeviceLinkCreated;
  };
  const poll = (link: DeviceLinkCreated, pollToken = link.pollToken) =>
    t.server.inject({
      method: 'POST',
      url: `/auth/device-links/${link.linkId}/poll`,
      payload: { pollToken },
    });
  const lookUp = (who: { headers: Record<string, string> }, code: string) =>
    t.server.inject({ method: 'GET', url: `/auth/device-links/code/${code}`, headers: who.headers });
  const approve = (who: { headers: Record<string, string> }, code: string, password: string) =>
    t.server.inject({
      method: 'POST',
      url: `/auth/device-links/code/${code}/approve`,
      headers: who.headers,
      payload: { password },
    });
  const codeOf = (res: { statusCode: number; body: string }) =>
    `${res.statusCode} ${(JSON.parse(res.body) as { code?: string }).code ?? ''}`.trim();

  it('lets a new device in once a signed-in viewer approves its code with their password', async () => {
    const link = await ask('Living-room TV');
    expect(link.code).toMatch(/^[0-9]{6}$/);
    // The approval page of this instance (the origin the request came to).
    expect(link.linkUrl).toMatch(new RegExp(`^http://localhost(:80)?/link\\?code=${link.code}$`));
    expect(link.qr).toMatch(/^data:image\/png;base64,/);
    expect(Date.parse(link.expiresAt) - t.clock.ms).toBe(DEVICE_LINK_TTL_MS);
    expect((await poll(link)).json()).toEqual({ status: 'pending', expiresAt: link.expiresAt });

    const seen = await lookUp(owner, link.code);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({ device: 'Living-room TV' });
    expect(codeOf(await approve(owner, link.code, 'wrong password'))).toBe('403 password_incorrect');
    expect((await poll(link)).json().status).toBe('pending');
    expect((await approve(owner, link.code, PASSWORD)).statusCode).toBe(200);

    // Only the device holding the poll token gets the session, and only once.
    expect(codeOf(await poll(link, 'guessed-token'))).toBe('404 link_not_found');
    const approved = (await poll(link)).json() as DeviceLinkPollResponse;
    if (approved.status !== 'approved') throw new Error('not approved');
    expect(approved.auth.user.id).toBe(owner.user.id);
    expect(approved.auth.session.device).toBe('Living-room TV');
    const me = await t.server.inject({
      method: 'GET',
      url: '/customers',
      headers: { authorization: `Bearer ${approved.auth.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(codeOf(await poll(link))).toBe('404 link_not_found');
    // A replayed approval finds nothing to approve.
    expect(codeOf(await approve(owner, link.code, PASSWORD))).toBe('404 link_not_found');
    // The owner sees the new device among theirs.
    const sessions = await t.server.inject({
      method: 'GET',
      url: `/users/${owner.user.id}/sessions`,
      headers: owner.headers,
    });
    expect(JSON.stringify(sessions.json())).toContain('Living-room TV');
  });

  it('names a device by its browser when it gives no name', async () => {
    const link = await ask();
    expect((await lookUp(owner, link.code)).json()).toMatchObject({ device: 'Chrome on Linux' });
  });

  it('ends a code after ten minutes: nobody can approve it, the device is told to ask again', async () => {
    const link = await ask('Old TV');
    t.clock.advance(DEVICE_LINK_TTL_MS);
    expect(codeOf(await lookUp(owner, link.code))).toBe('404 link_not_found');
    expect(codeOf(await approve(owner, link.code, PASSWORD))).toBe('404 link_not_found');
    expect(codeOf(await poll(link))).toBe('410 link_expired');
    expect(codeOf(await poll(link))).toBe('404 link_not_found');
  });

  it('asks a passphrase account for a way it has (no password): 400, and the device still waits', async () => {
    const link = await ask('Friend laptop');
    const passphrase = await register(t.server);
    expect(codeOf(await approve(passphrase, link.code, 'anything'))).toBe('400 wrong_account_kind');
    expect((await poll(link)).json().status).toBe('pending');
  });

  it('makes an account that guesses codes wait, even for a right code then, with no 5xx', async () => {
    const guesser = await signUp(t.server);
    const link = await ask('Target TV');
    const answers: string[] = [];
    for (let i = 0; i < 11; i++) {
      const guess = String((Number(link.code) + 1 + i) % 1_000_000).padStart(6, '0');
      const res = await lookUp(guesser, guess);
      answers.push(codeOf(res));
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill('404 link_not_found'));
    expect(answers[10]).toBe('429 rate_limited');
    const held = await lookUp(guesser, link.code);
    expect(codeOf(held)).toBe('429 rate_limited');
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect(codeOf(await approve(guesser, link.code, PASSWORD))).toBe('429 rate_limited');
    // The guesser's wait is theirs: the owner still approves.
    expect((await approve(owner, link.code, PASSWORD)).statusCode).toBe(200);
  });

  it('slows password guessing at approval per account, from any of its devices', async () => {
    const account = await signUp(t.server);
    const other = await loginCustomer(t.server, account.email);
    const link = await ask('Another TV');
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(codeOf(await approve(other, link.code, `wrong ${i}`)));
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('403 password_incorrect'));
    expect(answers[5]).toBe('429 rate_limited');
    expect(codeOf(await approve(account, link.code, PASSWORD))).toBe('429 rate_limited');
  });
});
