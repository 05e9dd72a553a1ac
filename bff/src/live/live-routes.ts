import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import { liveEvents } from '@smm/contracts';
import { access } from '../http/access.ts';
import { callerOf } from '../http/context.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import type { LiveEntry, LiveHub } from './live-hub.ts';
import { liveMessages } from './live-messages.ts';
import type { LiveTickets } from './live-tickets.ts';
import type { SessionEnds } from './session-ends.ts';

export type LiveDeps = {
  hub: LiveHub;
  tickets: LiveTickets;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /**
   * A stream is closed after this long; the page buys a new ticket with its current token, so a
   * session that ended (expired or signed out) stops receiving within this time.
   */
  maxStreamMs: number;
  /** Ends a member's streams on every replica when their sessions end (a password change). */
  sessionEnds?: SessionEnds;
};

const frame = (event: string, data: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const updateFrame = (entry: LiveEntry) => frame(liveEvents.update, entry.update, entry.id);

/**
 * `POST /api/live/ticket` (signed in) → `{ ticket }`; `GET /api/live?ticket=…[&lastEventId=…]` →
 * Server-Sent Events: `ready`, then the updates missed since `lastEventId` (or the standard
 * `Last-Event-ID` header), or `resync` when they can no longer be told, then each update as it
 * happens.
 */
export function liveRoutes(router: Router, verifier: TokenVerifier, live: LiveDeps | undefined): void {
  const unavailable = () => new HttpError(503, 'LIVE_UNAVAILABLE', liveMessages.unavailable);

  router.post('/live/ticket', access(verifier, 'signedIn'), async (req: Request, res: Response) => {
    if (!live) throw unavailable();
    res.json({ ticket: await live.tickets.issue(callerOf(req).userId) });
  });

  router.get('/live', async (req: Request, res: Response) => {
    if (!live) throw unavailable();
    const ticket = typeof req.query.ticket === 'string' ? req.query.ticket : '';
    const userId = await live.tickets.redeem(ticket);
    if (userId === null) throw new HttpError(401, 'LIVE_TICKET_INVALID', liveMessages.ticketInvalid);
    const lastId = typeof req.query.lastEventId === 'string' && req.query.lastEventId !== '' ? req.query.lastEventId : req.get('last-event-id');

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform keeps the compression middleware from buffering the stream.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write(frame(liveEvents.ready, {}));
    // Replay and subscription in one synchronous step: no update can fall between them.
    if (lastId !== undefined) {
      const missed = live.hub.since(userId, lastId);
      if (missed === 'unknown') res.write(frame(liveEvents.resync, {}));
      else for (const entry of missed) res.write(updateFrame(entry));
    }
    const unsubscribe = live.hub.subscribe(userId, {
      send: (entry) => res.write(updateFrame(entry)),
      close: () => res.end(),
      end: (ended) => res.end(frame(liveEvents.ended, ended)),
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), live.heartbeatMs);
    const lifetime = setTimeout(() => res.end(), live.maxStreamMs);
    req.log.info({ userId, resumed: lastId !== undefined }, 'live: stream opened');
    res.on('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(lifetime);
    });
  });
}
