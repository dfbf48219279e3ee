import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PARTY_TOKEN_HEADER, partyEndpoints as e, type PartyTitle } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf, presentedToken, type AuthContext } from '../../plugins/auth.ts';
import { contractRoute, contractStream } from '../../plugins/contract-route.ts';
import { limit, withRetryAfter, type RateLimits } from '../../plugins/rate-limit.ts';
import { EventStream } from '../sources/event-stream.ts';
import { viewOf } from './party-room.ts';
import type { PartyBroadcast } from './party-store.ts';
import type { PartiesService } from './parties.service.ts';

export interface PartyAccess {
  /** The session a token opens, or null. */
  authenticate(token: string, userAgent: string): Promise<AuthContext | null>;
  /** 403 kids_profile when the request's session is in (or names) a kids' profile: parties are not for kids. */
  assertNotKid(auth: AuthContext, request: FastifyRequest): Promise<void>;
  /** Throws the scrape API's refusal when the request's viewer may not play `title`. */
  assertCanPlay(request: FastifyRequest, title: PartyTitle): Promise<void>;
  /** Signed-out viewers may join with a name (WATCH_PARTY_GUESTS). */
  guests: boolean;
}

export interface PartyStreamOptions {
  heartbeatMs: number;
  /** A member's stream is marked open this often (PARTY_STALE_MS is several of these). */
  touchMs: number;
  /** Streams close after about this long; the client reconnects and hears the room again. */
  maxAgeMs: number;
}

export const PARTY_STREAM_DEFAULTS: PartyStreamOptions = {
  heartbeatMs: 25_000,
  touchMs: 30_000,
  maxAgeMs: 15 * 60_000,
};

const partyTokenOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers[PARTY_TOKEN_HEADER];
  return typeof header === 'string' && header ? header : undefined;
};

/** The signed-in caller of an `optional` route, or null (401 for a token that opens no session). */
async function callerOf(request: FastifyRequest, access: PartyAccess): Promise<AuthContext | null> {
  const token = presentedToken(request);
  if (!token) return null;
  const auth = await access.authenticate(token, request.headers['user-agent'] ?? '');
  if (!auth) throw new AppError(401, 'unauthorized', 'Not logged in');
  request.auth = auth;
  return auth;
}

/** The open party streams of this process: closed when the server closes (clients reconnect elsewhere). */
export class PartyStreams {
  private readonly closers = new Set<() => void>();

  track(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  closeAll(): void {
    for (const close of [...this.closers]) close();
  }
}

/** The routes anyone may call: the clock, and a member's (X-Party-Token) or a joiner's. */
export function registerPartyPublicRoutes(
  app: FastifyInstance,
  parties: PartiesService,
  deps: { access: PartyAccess; limits: RateLimits; streams: PartyStreams; options: PartyStreamOptions },
): void {
  const { access, limits } = deps;
  contractRoute(app, e.clock, async (_input, _request, reply) => {
    reply.header('cache-control', 'no-store');
    return { now: parties.now() };
  });
  contractRoute(app, e.join, async ({ params, body }, request, reply) => {
    await limit(limits, reply, 'party_join', request.ip);
    const auth = await callerOf(request, access);
    if (auth) await access.assertNotKid(auth, request);
    else if (!access.guests) throw new AppError(401, 'party_guests_closed', 'Sign in to join this party');
    await access.assertCanPlay(request, await parties.titleOf(params.partyId));
    reply.header('cache-control', 'no-store');
    return parties.join(
      params.partyId,
      { userId: auth?.userId ?? null, name: body.name },
      partyTokenOf(request),
    );
  });
  contractRoute(app, e.preview, async ({ params }, request, reply) => {
    await limit(limits, reply, 'party_join', request.ip);
    reply.header('cache-control', 'no-store');
    return parties.preview(params.partyId);
  });
  contractRoute(app, e.get, async ({ params }, request) =>
    parties.view(params.partyId, partyTokenOf(request)),
  );
  contractRoute(app, e.leave, async ({ params }, request) => {
    await parties.leave(params.partyId, partyTokenOf(request));
    return { left: true as const };
  });
  contractRoute(app, e.command, async ({ params, body }, request, reply) =>
    withRetryAfter(reply, async () => {
      const token = partyTokenOf(request);
      if (body.type === 'title') {
        await parties.memberOf(params.partyId, token);
        await access.assertCanPlay(request, body.title);
      }
      return parties.command(params.partyId, token, body);
    }),
  );
  contractRoute(app, e.message, async ({ params, body }, request, reply) =>
    withRetryAfter(reply, () => parties.message(params.partyId, partyTokenOf(request), body)),
  );
  registerPartyStream(app, parties, deps);
}

/** `GET /parties/:partyId/events`: what a member hears of the party, from its state on connecting on. */
function registerPartyStream(
  app: FastifyInstance,
  parties: PartiesService,
  deps: { limits: RateLimits; streams: PartyStreams; options: PartyStreamOptions },
): void {
  const { heartbeatMs, touchMs, maxAgeMs } = deps.options;
  contractStream(app, e.events, async ({ params }, request, reply) => {
    const { member } = await parties.memberOf(params.partyId, partyTokenOf(request));
    await limit(deps.limits, reply, 'party_stream', member.id);
    const target: { stream?: EventStream<typeof e.events.events> } = {};
    const cleanups: (() => void)[] = [];
    let closed = false;
    // Redis delivers a room's changes in order, but the catch-up read may race one: never step back.
    let lastVersion = 0;
    const finish = (reason?: 'ended' | 'left') => {
      if (closed) return;
      closed = true;
      for (const cleanup of cleanups) cleanup();
      if (reason) target.stream?.end('closed', { reason });
      else target.stream?.close();
    };
    const hear = (message: PartyBroadcast) => {
      const stream = target.stream;
      if (!stream) return;
      if (message.type === 'ended') return finish('ended');
      if (message.type === 'state') {
        if (!message.room.members.some((m) => m.id === member.id)) return finish('left');
        if (message.room.version <= lastVersion) return;
        lastVersion = message.room.version;
        return stream.send('state', viewOf(message.room, parties.now()));
      }
      const { type: _type, ...event } = message;
      if (message.type === 'chat') stream.send('chat', event as Parameters<typeof stream.send<'chat'>>[1]);
      else stream.send('reaction', event as Parameters<typeof stream.send<'reaction'>>[1]);
    };
    cleanups.push(await parties.store.subscribe(params.partyId, hear));
    const stream = new EventStream(request, reply, e.events.events, {
      greeting: 'marquee party',
      keepAliveMs: heartbeatMs,
    });
    target.stream = stream;
    // The room as it is once this stream hears every change (and again after Redis may have dropped some).
    const catchUp = async () => {
      const room = await parties.store.read(params.partyId).catch(() => undefined);
      if (room === undefined) return;
      if (room === null) return finish('ended');
      hear({ type: 'state', room });
    };
    cleanups.push(parties.store.onGap(() => void catchUp()));
    const touch = () => void parties.touch(params.partyId, member.id).catch(() => undefined);
    touch();
    const touching = setInterval(touch, touchMs);
    touching.unref();
    const age = setTimeout(() => finish(), maxAgeMs * (0.9 + Math.random() * 0.2));
    age.unref();
    cleanups.push(
      () => clearInterval(touching),
      () => clearTimeout(age),
      deps.streams.track(() => finish()),
    );
    stream.signal.addEventListener('abort', () => finish());
    reply.raw.on('close', () => finish());
    await catchUp();
  });
}

/** The signed-in routes: a new party, and p-stream's player status. */
export function registerPartyRoutes(
  app: FastifyInstance,
  parties: PartiesService,
  access: PartyAccess,
): void {
  contractRoute(app, e.create, async ({ body }, request, reply) => {
    const auth = authOf(request);
    await limit(parties.limits, reply, 'party_create', auth.userId);
    await access.assertCanPlay(request, body.title);
    reply.header('cache-control', 'no-store');
    return parties.create({ userId: auth.userId, name: body.name }, body);
  });
  contractRoute(app, e.postPlayerStatus, async ({ body }, request, reply) =>
    withRetryAfter(reply, async () => {
      const timestamp = await parties.postStatus(authOf(request).userId, {
        userId: body.userId,
        roomCode: body.roomCode,
        isHost: body.isHost ?? false,
        content: body.content ?? null,
        player: body.player ?? null,
      });
      return { success: true as const, timestamp };
    }),
  );
  contractRoute(app, e.playerStatus, async ({ query }, _request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!query.roomCode)
      throw new AppError(
        400,
        'bad_request',
        'Name the room (roomCode), and a member (userId) if you want one',
      );
    const users = await parties.roomStatuses(query.roomCode);
    if (query.userId)
      return { userId: query.userId, roomCode: query.roomCode, statuses: users[query.userId] ?? [] };
    return { roomCode: query.roomCode, users };
  });
}
