import { describe, expect, it } from "vitest";
import { panelSearch, readPanelAddress } from "./admin-tabs.ts";

describe("the panel's address", () => {
  it("opens on the Overview when the address names no tab, or one that does not exist", () => {
    expect(readPanelAddress(new URLSearchParams(""))).toEqual({ tab: "Overview", eventId: null });
    expect(readPanelAddress(new URLSearchParams("tab=no-such-tab&event=3"))).toEqual({ tab: "Overview", eventId: 3 });
  });

  it("reads back every tab with its picked event", () => {
    for (const tab of [
      "Overview",
      "Add Event",
      "Edit Event",
      "User Details",
      "Rounds",
      "Host access",
      "Invite",
    ] as const) {
      expect(readPanelAddress(new URLSearchParams(panelSearch(tab, 12)))).toEqual({ tab, eventId: 12 });
    }
    expect(panelSearch("Edit Event", 7)).toBe("?tab=edit-event&event=7");
    expect(panelSearch("Overview")).toBe("");
  });

  it("ignores an event that is not an id", () => {
    for (const bad of ["abc", "0", "1.5", "-2", "07", "1e3", "12345678901234567"]) {
      expect(readPanelAddress(new URLSearchParams(`tab=edit-event&event=${bad}`)).eventId).toBeNull();
    }
  });
});
