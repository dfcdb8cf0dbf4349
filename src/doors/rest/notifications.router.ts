/**
 * A watchlist's email setting (issue 33): `GET` and `PATCH /dashboard/watchlists/{id}/notifications`.
 * The body is checked here, field by field, so a bad one is a 400 naming it in this API's words
 * before any GraphQL enum sees it; the service checks the tier's event types.
 */
import type { RouteTable } from './route-table';
import { EVENT_TYPES } from '../../vocabulary';
import { parseNotificationChange } from '../../services/watchlist-notification.service';
import type { Gateway } from '../../gateway/pipeline';
import { heldToDocument } from './documented-operations';
import { idParam, jsonObject } from './params';
import { type Handler, route } from './route';
import type { RunOperation } from './run-operation';

/** GraphQL's enum name of an event type: bill.stage_changed is BILL_STAGE_CHANGED. */
const enumName = (word: string) => word.toUpperCase().replace(/\./g, '_');
const eventWord = new Map(EVENT_TYPES.map((type) => [enumName(type), type]));

const answer = (n: { watchlistId: number; email: string; time: string; day: string; events: string[] }) => ({
  watchlist_id: n.watchlistId,
  email: n.email.toLowerCase(),
  time: n.time,
  day: n.day.toLowerCase(),
  events: n.events.map((e) => eventWord.get(e) ?? e),
});

export function addNotificationRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get(
    '/dashboard/watchlists/:id/notifications',
    handle(async (req, context) => answer((await run('GetWatchlistNotifications', { id: idParam(req.params.id, 'id') }, context)).watchlistNotifications)),
  );

  router.patch(
    '/dashboard/watchlists/:id/notifications',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      // the shape, whatever the tier (the tier's types are the service's check)
      const change = parseNotificationChange(jsonObject(req), 'pro');
      const input = {
        email: change.email && enumName(change.email),
        time: change.time,
        day: change.day && enumName(change.day),
        events: change.events?.map(enumName),
      };
      return answer((await run('SetWatchlistNotifications', { id, input }, context)).setWatchlistNotifications);
    }),
  );
}
