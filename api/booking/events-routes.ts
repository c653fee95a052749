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
  description: [
    "- **Who:** public.",
    "- **200:** JSON array of `EventSummary`, every event (cancelled and ended ones too), soonest first.",
    "  `Cache-Control: no-cache`; `br`/`gzip` by `Accept-Encoding`.",
    "",
    "An **event** as the public calls answer it (`EventSummary`):",
    "",
    "| Field | Type |",
    "| --- | --- |",
    "| `id` | id |",
    "| `event_name` | string |",
    "| `event_image` | stored image name |",
    "| `EventDateTime` | ISO 8601 UTC, the start |",
    "| `event_address` | string |",
    "| `booking_amount` | AUD dollars (the price of a booking made now) |",
    "| `SeatAvailabilityPer` | round(100 × seats left / total seats); paid seats, live holds and live waitlist offers count as taken |",
    "| `event_status` | `upcoming`, `started`, `ended` or `cancelled` |",
    "| `event_duration` | hours |",
    "| `from_age`, `to_age` | integers |",
    "| `time_zone` | IANA zone of the venue |",
    "| `startsAtText` | `{weekday, local, utc}`: the start as the cards write it, `Tue`, `2026-12-01 07:00 PM AEDT` (the venue's clock and zone) and `2026-12-01 08:00 AM UTC`, so a phone shows it without building a formatter |",
    "| `SeatsLeft` | `{male, female}` seats left per gender at a balanced event, `null` when the event has one pool of seats |",
    "| `seatsLeftTotal` | integer: seats left in all (the count behind `SeatAvailabilityPer`), at any event |",
    "| `resultsAt` | ISO 8601 UTC: when the matches are released; the organiser's time, else 12:00 PM on the venue's clock the day after the start day (docs/api.md, Results) |",
    "| `doorsOpenAt` | ISO 8601 UTC: when the door may check people in; the organiser's time (or when **Open doors now** was pressed), else 3 hours before the start (docs/api.md, The night) |",
    "| `noMatchPromise` | true when the night promises `No match? Your next night is on us.` (issue 52): the card and the confirmation say so |",
    "| `creditUntil` | ISO 8601 UTC: until when **Cancel my booking** offers credit of the full price paid (`cancel-booking` with `as: credit`); the organiser's time, else the start (docs/decisions/057-credit.md) |",
    "| `bookingAmountMale`, `bookingAmountFemale` | AUD dollars or `null`: a gender's own price, overriding `booking_amount` |",
    "| `earlyBirdDiscount` | AUD dollars or `null`: taken off until `earlyBirdUntil` |",
    "| `earlyBirdUntil` | ISO 8601 UTC or `null` (the organiser sets it on the venue's clock) |",
    "| `earlyBirdUntilText` | `20 Dec`: that day on the venue's clock, as the card writes it, or `null` |",
    "| `fromAgeMale`, `toAgeMale`, `fromAgeFemale`, `toAgeFemale` | integers or `null`: a gender's own bound; `from_age`/`to_age` apply where `null` |",
    "| `currentAmount` | `{male, female}` AUD dollars: what each gender pays for a seat held now, before any promo code (gender price, then the early bird while it runs; never below $1.00) |",
    "| `offersFriend` | whether guests choose Date, Friend or No (`like`, `friend`, `dislike`) instead of Like or Dislike (issue 37) |",
    "| `format` | absent at **Women meet men** (`women_men`), so those answers are as before; otherwise who meets whom (issue 37): `one_group` (**One group**: everyone meets everyone, one pool of seats, no gender asked) or `mixed` (**Mixed**: gender and whom they would like to meet asked, one pool of seats) |",
    "| `cancellationPolicy` | `{fullRefundHours, laterPercent}`: a guest's cancel gives back everything until `fullRefundHours` before the start, then `laterPercent` of it (0: nothing) until the start (docs/decisions/028-cancellation-money-path.md) |",
    "",
    "Prices follow `docs/decisions/023-prices-and-ages.md`: the gender's price, then the early bird, then a",
    "promo code, each in whole cents, and the price is fixed on the booking when the seat is held.",
  ].join("\n"),
  responses: { 200: json(z.array(eventSummary)), ...errors("get", []) },
});

const getEventRoute = createRoute({
  method: "get",
  path: "/get-event/{id}",
  summary: "One event, with its seat plan",
  description: [
    "- **Who:** public.",
    "- **200:** `EventDetail`. `Cache-Control: no-cache`.",
    "",
    "`EventDetail` is an `EventSummary` plus `event_date` (`YYYY-MM-DD`, UTC), `event_time` (`HH:MM`,",
    "UTC), `total_seats`, and `seatsMale`, `seatsFemale` (the seat plan of a balanced event, both `null`",
    "otherwise).",
  ].join("\n"),
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
