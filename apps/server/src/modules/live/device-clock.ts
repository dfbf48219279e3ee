import type { FastifyRequest } from 'fastify';
import { CLIENT_TIME_HEADER } from '@marquee/contract';

/**
 * Clock-safe change times (decision 079). A device's `updatedAt` comes from its own clock; our client
 * also sends that clock's reading when the request leaves (X-Client-Time, epoch ms). The difference to
 * the server's clock is the device's offset, and the change time is moved by it, so a device whose
 * clock runs ahead cannot win conflicts it should lose, nor one running behind lose those it should
 * win. A change queued offline keeps its place as long as the device's offset did not change since.
 * Without the header (the older clients), times are taken as sent (clamped to now, as always).
 */
export type ChangeTimeCorrector = <T extends string | undefined>(updatedAt: T) => T;

/** Offsets below this are network delay, not a wrong clock: times are left as sent. */
export const CLOCK_TOLERANCE_MS = 2_000;

/**
 * Readings no device clock gives (before 2001-09-09, after 5138): a broken or hostile header, taken as
 * no reading at all.
 */
const PLAUSIBLE_CLOCK_MS = { min: 1e12, max: 1e14 } as const;

/** The device's offset to the server's clock in ms (server − device), or 0 when unknown or negligible. */
export function deviceClockOffset(request: FastifyRequest, nowMs: number): number {
  const raw = request.headers[CLIENT_TIME_HEADER];
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) return 0;
  const deviceNow = Number(raw);
  if (deviceNow < PLAUSIBLE_CLOCK_MS.min || deviceNow > PLAUSIBLE_CLOCK_MS.max) return 0;
  const offset = nowMs - deviceNow;
  return Math.abs(offset) < CLOCK_TOLERANCE_MS ? 0 : offset;
}

/** The corrector of one request's change times (see above). */
export function changeTimesOf(request: FastifyRequest, nowMs: number): ChangeTimeCorrector {
  const offset = deviceClockOffset(request, nowMs);
  return <T extends string | undefined>(updatedAt: T): T => {
    if (offset === 0 || updatedAt === undefined) return updatedAt;
    const ms = Date.parse(updatedAt);
    if (!Number.isFinite(ms)) return updatedAt;
    // Never past now (a future time is taken as now anyway) nor before 1970: always a valid time.
    return new Date(Math.min(Math.max(ms + offset, 0), nowMs)).toISOString() as T;
  };
}

const correctField = (value: unknown, fix: ChangeTimeCorrector) => {
  const record = value as { updatedAt?: unknown } | null;
  if (record && typeof record === 'object' && typeof record.updatedAt === 'string')
    record.updatedAt = fix(record.updatedAt);
};

/**
 * Moves every change time of a library write by the device's offset: the body's `updatedAt` (or each
 * item's, in an import) and the query's (removals). Run before the handler; values that are not times
 * stay as they are, for validation to refuse.
 */
export function correctChangeTimes(request: FastifyRequest, nowMs: number): void {
  const fix = changeTimesOf(request, nowMs);
  if (Array.isArray(request.body)) for (const item of request.body) correctField(item, fix);
  else correctField(request.body, fix);
  correctField(request.query, fix);
}
