// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { yearLike } from "../../../../test/clock.ts";
import type { ActivityEntry } from "../admin-api.ts";
import { ActivitySection } from "./activity-log.tsx";

// Who did what (issue 49, docs/decisions/050-the-team.md): a team member's refund reads as a sentence
// naming them and their role; the owner's line stays as it was.

const entry = (over: Partial<ActivityEntry>): ActivityEntry =>
  ({
    id: 1,
    at: `${yearLike(2031)}-03-04T09:00:00.000Z`,
    actor: "organiser",
    actorKind: "organiser",
    action: "refund",
    eventID: 7,
    person: { userID: 3, name: "Arjun Mehta" },
    otherPerson: null,
    detail: null,
    count: 1,
    ...over,
  }) as ActivityEntry;

const show = (rows: ActivityEntry[]) =>
  render(
    <ActivitySection
      activity={{ status: "ready", rows }}
      older="none"
      zone="Australia/Sydney"
      onReload={() => {}}
      onOlder={() => {}}
    />,
  );

const lines = () => [...document.querySelectorAll(".activity-what")].map((li) => li.textContent);

afterEach(cleanup);

describe("Activity's lines", () => {
  it("name a member's refund as `Priya (Finance) refunded Arjun Mehta`, and leave the owner's as it was", () => {
    show([
      entry({ id: 2, actor: "Priya (Finance)", actorKind: "member" }),
      entry({ id: 1 }),
      entry({
        id: 3,
        actor: "Priya (Finance)",
        actorKind: "member",
        action: "event edited",
        person: null,
        detail: "seats",
      }),
    ]);
    expect(screen.getByRole("list", { name: "Activity, newest first" })).toBeTruthy();
    expect(lines()).toEqual([
      "Priya (Finance) refunded Arjun Mehta",
      "Organiser · refund · Arjun Mehta",
      "Priya (Finance) · event edited · seats",
    ]);
  });
});
