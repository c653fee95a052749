import { Hono, type TypedResponse } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { idParam, validate } from "../lib/validate.ts";
import { createEventListCache } from "./event-list-cache.ts";
import { type EventSummary, getEvent } from "./events.ts";

const typed = (response: Response) => response as Response & TypedResponse<EventSummary[], 200, "json">;

export const eventsRoutes = (deps: AppDeps) => {
  const eventList = createEventListCache(deps.db);
  return (
    new Hono()
      // The list is sent pre-encoded (see event-list-cache.ts), so its type is declared: it is JSON of
      // EventSummary[], which the PWA's typed client reads.
      .get("/get-events", (c): Response & TypedResponse<EventSummary[], 200, "json"> => {
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
      .get("/get-event/:id", validate("param", z.object({ id: idParam(z) })), (c) => {
        // Public, like the list: revalidated rather than never stored (the API's default is no-store).
        c.header("cache-control", "no-cache");
        return c.json(getEvent(deps.db, c.req.valid("param").id, deps.now()));
      })
  );
};
