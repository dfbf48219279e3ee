import { describe, expect, it } from 'vitest';
import type { TraktStatus } from '@marquee/contract';
import { ApiError } from '../../lib/api/index.ts';
import { traktErrorKey, traktPollInterval, traktStatusKey } from './trakt-status.ts';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const status = (patch: Partial<TraktStatus>): TraktStatus => ({
  state: 'unlinked',
  device: null,
  username: null,
  linkedAt: null,
  lastSyncAt: null,
  syncPending: false,
  problem: null,
  ...patch,
});
const pending = (expiresAt: string, interval = 5) =>
  status({
    state: 'pending',
    device: { userCode: 'AB12CD34', verificationUrl: 'https://trakt.tv/activate', expiresAt, interval },
  });

describe('when the Trakt status is read again', () => {
  it("each of Trakt's intervals while a code waits, until it expires", () => {
    expect(traktPollInterval(pending('2026-12-01T12:10:00.000Z', 5), NOW)).toBe(5_000);
    expect(traktPollInterval(pending('2026-12-01T12:10:00.000Z', 0), NOW)).toBe(1_000);
    expect(traktPollInterval(pending('2026-12-01T12:00:00.000Z'), NOW)).toBe(false);
    expect(traktPollInterval(pending('2026-12-01T11:59:00.000Z'), NOW)).toBe(false);
  });

  it('now and then while a sync pass is due; never otherwise', () => {
    expect(traktPollInterval(status({ state: 'linked', syncPending: true }), NOW)).toBe(3_000);
    expect(traktPollInterval(status({ state: 'linked' }), NOW)).toBe(false);
    expect(traktPollInterval(status({ state: 'unlinked' }), NOW)).toBe(false);
    expect(traktPollInterval(status({ state: 'relink' }), NOW)).toBe(false);
    expect(traktPollInterval(status({ state: 'unavailable' }), NOW)).toBe(false);
    expect(traktPollInterval(status({ state: 'pending' }), NOW)).toBe(false);
    expect(traktPollInterval(undefined, NOW)).toBe(false);
  });
});

describe('the words of a failed Trakt action', () => {
  it("Trakt's codes have their own, the others are the app's", () => {
    expect(traktErrorKey(new ApiError(503, 'trakt_not_configured', 'x'))).toBe(
      'trakt.errors.trakt_not_configured',
    );
    expect(traktErrorKey(new ApiError(502, 'trakt_unavailable', 'x'))).toBe('trakt.errors.trakt_unavailable');
    expect(traktErrorKey(new ApiError(409, 'trakt_not_linked', 'x'))).toBe('trakt.errors.trakt_not_linked');
    expect(traktErrorKey(new ApiError(429, 'rate_limited', 'x'))).toBe('errors.api.rate_limited');
    expect(traktErrorKey(new ApiError(0, 'network_error', 'x'))).toBe('errors.api.network_error');
    expect(traktErrorKey(new Error('boom'))).toBe('errors.api.unknown');
  });
});

it("the status's key is the one the player reads (features/player/session/use-trakt-scrobble.ts)", () => {
  expect(traktStatusKey('u1', 'p1')).toEqual(['trakt-status', 'u1', 'p1']);
});
