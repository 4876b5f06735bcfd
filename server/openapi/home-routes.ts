/** The OpenAPI description of the home page's routes (server/routes/home.ts), merged into fixed-routes.ts. */
import type { FixedRouteDoc } from './fixed-routes.ts';
import { chartDataSchema, historyEntrySchema, tileCountSchema } from '../routes/home.ts';
import { savedViewSchema } from '../routes/saved-views.ts';
import { notificationFeedSchema } from '../routes/notifications.ts';

const json = (schema: unknown) => ({ 'application/json': { schema } });

export function homeRouteDocs(): Record<string, FixedRouteDoc> {
  return {
    'GET /api/home/tiles': {
      tag: 'home',
      operationId: 'home.tiles',
      summary: "The counts of a dashboard's work tiles for the caller (metadata: the dashboard screen's tiles)",
      description:
        "Each tile counts the rows its list screen would show the caller (the list's fixed filter, the tile's tab and conditions, the caller's row scope), bounded like a list's count: `more` says the count stopped at its bound. Only tiles the caller may open are answered. `search` is the filter the list applies when opened from the tile (relative dates resolved).",
      responses: { '200': { description: 'the tiles', content: json({ type: 'object', properties: { tiles: { type: 'array', items: tileCountSchema } } }) } },
      errors: [401, 404],
    },
    'GET /api/home/charts': {
      tag: 'home',
      operationId: 'home.charts',
      summary: "The data of a dashboard's charts for the caller (metadata: the dashboard screen's charts), labels in the caller's language",
      description:
        "Each chart aggregates the rows its list screen would show the caller (the list's fixed filter, the chart's tab and conditions, the caller's row scope), grouped by a code (one point per code of its table, zeros included) or by the UTC day of a date field over the chart's window (one point per day, oldest first), counting rows or summing a field. Only charts whose list the caller may open are answered.",
      responses: { '200': { description: 'the charts', content: json({ type: 'object', properties: { charts: { type: 'array', items: chartDataSchema } } }) } },
      errors: [401, 404],
    },
    'GET /api/history/:resource/:id': {
      tag: 'home',
      operationId: 'home.history',
      summary: "A record's history from the audit trail, newest first, in the caller's language",
      description:
        'Scoped exactly like the record: a caller who may not read the record gets 404. Each entry: who, when, the operation (an action by its label), the fields changed with old and new values (code values by their labels; private fields never), and files added or removed. At most 200 entries.',
      responses: { '200': { description: 'the entries', content: json({ type: 'array', items: historyEntrySchema }) } },
      errors: [401, 403, 404],
    },
    'GET /api/notifications': {
      tag: 'home',
      operationId: 'home.notifications',
      summary: "The caller's newest notifications (at most 50), each with its read mark and the path that opens its record, and the unread count",
      description:
        "What notifies whom is metadata (an entity's `notify`): a new record or an action, told to profiles, of the records they may read (a supplier only of rows naming it). Labels in the caller's language; the caller's own doings are left out.",
      responses: { '200': { description: 'the feed', content: json(notificationFeedSchema) } },
      errors: [401],
    },
    'POST /api/notifications/:id/read': {
      tag: 'home',
      operationId: 'home.notifications.read',
      summary: 'Marks one notification read for the caller (one outside its audience is a 404)',
      responses: { '204': { description: 'marked' } },
      errors: [401, 404],
    },
    'POST /api/notifications/read-all': {
      tag: 'home',
      operationId: 'home.notifications.readAll',
      summary: "Marks every notification of the caller's audience read",
      responses: { '204': { description: 'marked' } },
      errors: [401],
    },
    'GET /api/notifications/stream': {
      tag: 'home',
      operationId: 'home.notifications.stream',
      summary: 'Server-Sent Events: `hello` at once, then `changed` (data: the newest event id) whenever a notification is written by any server process',
      description:
        'The stream carries no content: on `changed` (and after reconnecting) the page reads GET /api/notifications. PostgreSQL: LISTEN/NOTIFY; SQLite: each process polls the newest id once a second while a stream is open. The stream ends when the token expires (reconnect with the refreshed one). Send the bearer token in the Authorization header (fetch with a streamed body).',
      responses: { '200': { description: 'the event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      errors: [401],
    },
    'GET /api/views': {
      tag: 'home',
      operationId: 'home.views.list',
      summary: "The caller's saved views of a list screen (its own only), by name",
      responses: { '200': { description: 'the views', content: json({ type: 'array', items: savedViewSchema }) } },
      errors: [400, 401, 404],
    },
    'POST /api/views': {
      tag: 'home',
      operationId: 'home.views.create',
      summary: "Saves the current search, sort, column choice and tab of a list screen under a name (the caller's own; optionally its default)",
      description:
        'The state holds only what the screen offers: its declared filters, a sortable field, its columns, its tabs (else 400 `error.invalidView`). A name the caller already gave a view of the screen is a 409 `error.viewNameTaken`. A screen the caller may not open is a 404.',
      responses: { '201': { description: 'saved', content: json(savedViewSchema) } },
      errors: [400, 401, 404, 409],
    },
    'PUT /api/views/:id': {
      tag: 'home',
      operationId: 'home.views.update',
      summary: 'Renames a saved view, replaces its state, or makes it the default of its screen (the previous default stops being one)',
      responses: { '200': { description: 'saved', content: json(savedViewSchema) } },
      errors: [400, 401, 404, 409],
    },
    'DELETE /api/views/:id': {
      tag: 'home',
      operationId: 'home.views.delete',
      summary: "Deletes one of the caller's saved views (another account's is a 404)",
      responses: { '204': { description: 'deleted' } },
      errors: [401, 404],
    },
  };
}
