import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import type { MyRounds } from "./my-rounds.ts";
import { newestFirst, nightView } from "./night-view.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const anika = { id: 2, username: "Anika", image_name: "a.jpg" };
const priya = { id: 3, username: "Priya", image_name: "p.jpg" };
const meera = { id: 4, username: "Meera", image_name: "m.jpg" };

const night = (over: Partial<MyRounds>): MyRounds => ({
  status: "running",
  current: 1,
  phase: "round",
  phaseEndsAt: "2026-11-29T20:05:00.000Z",
  serverNow: "2026-11-29T20:00:00.000Z",
  announcement: null,
  schedule: [
    { round: 1, table: 4, partner: anika },
    { round: 2, table: 5, partner: priya },
    { round: 3, table: null, partner: null },
    { round: 4, table: 1, partner: meera },
  ],
  ...over,
});

describe("what a guest sees of the night", () => {
  it("before the start: the first table and partner", () => {
    expect(nightView(night({ status: "planned", current: null, phase: null, phaseEndsAt: null }))).toEqual({
      kind: "before",
      total: 4,
      first: { round: 1, table: 4, partner: anika },
      firstTable: null,
    });
    // Sitting round 1 out: the first table is the one of the first round with a partner.
    const late = night({ status: "planned", current: null, phase: null, schedule: night({}).schedule.slice(2) });
    expect(nightView(late)).toMatchObject({
      kind: "before",
      first: { round: 3, partner: null },
      firstTable: { round: 4, table: 1, partner: meera },
    });
  });

  it("during a round: which round of how many, the table and the partner", () => {
    expect(nightView(night({ current: 2 }))).toEqual({
      kind: "round",
      total: 4,
      now: { round: 2, table: 5, partner: priya },
      paused: false,
    });
  });

  it("a round sat out has no partner, so the page says Break this round", () => {
    expect(nightView(night({ current: 3, status: "paused" }))).toEqual({
      kind: "round",
      total: 4,
      now: { round: 3, table: null, partner: null },
      paused: true,
    });
  });

  it("during a changeover: the next table and partner", () => {
    expect(nightView(night({ current: 1, phase: "break" }))).toMatchObject({
      kind: "break",
      round: 1,
      next: { round: 2, table: 5, partner: priya },
    });
    expect(nightView(night({ current: 4, phase: "break" }))).toMatchObject({ kind: "break", next: null });
  });

  it("a late arrival the host has not seated yet, no plan, and the end", () => {
    expect(nightView(night({ current: 2, schedule: [{ round: 1, table: 4, partner: anika }] }))).toEqual({
      kind: "not-seated",
    });
    expect(nightView(night({ status: "planned", current: null, schedule: [] }))).toEqual({ kind: "not-seated" });
    expect(nightView(night({ status: "none", current: null, schedule: [] }))).toEqual({ kind: "none" });
    expect(nightView(night({ status: "finished", current: 4 }))).toEqual({ kind: "finished" });
  });

  it("lists the partners met newest first, once their round has started", () => {
    const fromServer = [anika, priya, meera];
    expect(newestFirst(fromServer, night({ current: 2 })).map((p) => p.username)).toEqual(["Priya", "Anika", "Meera"]);
    expect(newestFirst(fromServer, night({ status: "finished", current: 4 })).map((p) => p.username)).toEqual([
      "Meera",
      "Priya",
      "Anika",
    ]);
    // Without rounds the server's order stands.
    expect(newestFirst(fromServer, null)).toEqual(fromServer);
    expect(newestFirst(fromServer, night({ status: "none", schedule: [] }))).toEqual(fromServer);
  });
});
