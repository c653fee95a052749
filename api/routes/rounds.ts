import { Hono } from "hono";
import { z } from "zod";
import { ROUNDS_LIMITS as L } from "../../common/rounds-settings.ts";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { getRounds, markLeft, planEventRounds, runRounds } from "../services/rounds.ts";
import { myRounds } from "../services/rounds-guest.ts";

// The night's rounds (docs/decisions/019-running-the-night.md). Every answer changes from one
// second to the next and is personal, so none is cached (the app's default no-store).

const id = jsonId(z);
const minutes = (limits: { min: number; max: number }) => z.number().int().min(limits.min).max(limits.max);

const planBody = z.object({
  eventID: id,
  roundMinutes: minutes(L.roundMinutes).optional(),
  breakMinutes: minutes(L.breakMinutes).optional(),
  // null takes a cap off; left out keeps the one set before.
  maxRounds: minutes(L.maxRounds).nullable().optional(),
  seated: z.enum(["female", "male"]).optional(),
});
const runBody = z.object({ eventID: id, action: z.enum(["start", "pause", "resume", "extend", "next", "finish"]) });
const leftBody = z.object({ eventID: id, userID: id, left: z.boolean() });
// Left loose on purpose, as for the partners page: a missing or mistyped token is a 403, not a 400.
const myRoundsBody = z.object({ eventID: id, userID: id, token: z.unknown().optional() });

export const roundsRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return new Hono()
    .get("/admin-event/:id/rounds", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
      return c.json(getRounds(deps.db, c.req.valid("param").id, deps.now()));
    })
    .post("/plan-rounds", admin, validate("json", planBody), (c) => {
      const { eventID, ...settings } = c.req.valid("json");
      return c.json(planEventRounds(deps.db, { eventId: eventID, ...settings }, deps.now()));
    })
    .post("/run-rounds", admin, validate("json", runBody), (c) => {
      const body = c.req.valid("json");
      return c.json(runRounds(deps.db, { eventId: body.eventID, action: body.action }, deps.now()));
    })
    .post("/mark-left", admin, validate("json", leftBody), (c) => {
      const body = c.req.valid("json");
      return c.json(markLeft(deps.db, { eventId: body.eventID, userId: body.userID, left: body.left }, deps.now()));
    })
    .post("/my-rounds", validate("json", myRoundsBody), (c) => {
      const body = c.req.valid("json");
      return c.json(myRounds(deps, { eventId: body.eventID, userId: body.userID, token: body.token }, deps.now()));
    });
};
