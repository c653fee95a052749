import { createRoute } from "@hono/zod-openapi";
import type { TypedResponse } from "hono";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import { idParam } from "../lib/validate.ts";
import { createEventListCache } from "./event-list-cache.ts";
import { type EventSummary, getEvent } from "./events.ts";
import { eventDetail, eventSummary } from "./events-schemas.ts";

const getEventsRoute = createRoute({
  method: "get",
  path: "/get-events",
  summary: "Every event (cancelled and ended ones too), soonest first; br or gzip by Accept-Encoding",
  responses: { 200: json(z.array(eventSummary)), ...errors("get", []) },
});

const getEventRoute = createRoute({
  method: "get",
  path: "/get-event/{id}",
  summary: "One event, with its seat plan",
  request: { params: z.object({ id: idParam(z) }) },
  responses: { 200: json(eventDetail), ...errors("get", ["invalid_request", "not_found"]) },
});

/** The pre-encoded list is JSON of EventSummary[] whatever its content encoding: so it is typed. */
const typed = (response: Response) => response as Response & TypedResponse<EventSummary[], 200, "json">;

export const eventsRoutes = (deps: AppDeps) => {
  const eventList = createEventListCache(deps.db);
  return (
    apiRouter()
      // The list is sent pre-encoded (see event-list-cache.ts), so its type is declared: it is JSON of
      // EventSummary[], which the PWA's typed client reads, and the reply check decodes it.
      .openapi(getEventsRoute, (c) => {
        const list = eventList(deps.now());
        const accepted = c.req.header("accept-encoding") ?? "";
        const headers: Record<string, string> = {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "no-cache",
          vary: "accept-encoding",
        };
        if (/\bbr\b/.test(accepted))
          return typed(c.body(new Uint8Array(list.br), 200, { ...headers, "content-encoding": "br" }));
        if (/\bgzip\b/.test(accepted)) {
          return typed(c.body(new Uint8Array(list.gzip), 200, { ...headers, "content-encoding": "gzip" }));
        }
        return typed(c.body(new Uint8Array(list.json), 200, headers));
      })
      .openapi(getEventRoute, (c) => {
        // Public, like the list: revalidated rather than never stored (the API's default is no-store).
        c.header("cache-control", "no-cache");
        return c.json(getEvent(deps.db, c.req.valid("param").id, deps.now()), 200);
      })
  );
};
