import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { idParam, validate } from "../lib/validate.ts";
import { getEvent, listEvents } from "../services/events.ts";

export const eventsRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/get-events", (c) => c.json(listEvents(deps.db, deps.now())))
    .get("/get-event/:id", validate("param", z.object({ id: idParam(z) })), (c) =>
      c.json(getEvent(deps.db, c.req.valid("param").id, deps.now())),
    );
