import { describe, expect, it } from "vitest";
import { opensDoor, panelSearch, readPanelAddress, signedInLabel, TABS, tabsFor } from "./admin-tabs.ts";

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
      "Reports",
      "Team",
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

describe("the tabs each person sees", () => {
  const member = (role: "manager" | "finance" | "door") => ({ member: { id: 3, name: "Priya", role } });

  it("gives the owner every tab, Team included, and the door", () => {
    expect(tabsFor({ member: null })).toEqual(TABS);
    expect(tabsFor({ member: null })).toContain("Team");
    expect(tabsFor({ member: null })).toContain("Reports");
    expect(opensDoor({ member: null })).toBe(true);
    expect(signedInLabel({ member: null })).toBe("Owner");
  });

  it("gives a Manager everything but Team, Reports included", () => {
    expect(tabsFor(member("manager"))).toEqual(TABS.filter((t) => t !== "Team"));
    expect(tabsFor(member("manager"))).toContain("Reports");
    expect(opensDoor(member("manager"))).toBe(true);
    expect(signedInLabel(member("manager"))).toBe("Priya (Manager)");
  });

  it("gives Finance the Overview, User Details and Reports, and no door", () => {
    expect(tabsFor(member("finance"))).toEqual(["Overview", "User Details", "Reports"]);
    expect(opensDoor(member("finance"))).toBe(false);
    expect(signedInLabel(member("finance"))).toBe("Priya (Finance)");
  });

  it("gives Door the Rounds and the door's page, and no Reports", () => {
    expect(tabsFor(member("door"))).toEqual(["Rounds"]);
    expect(opensDoor(member("door"))).toBe(true);
    expect(signedInLabel(member("door"))).toBe("Priya (Door)");
  });

  it("opens an address naming another role's tab on the first of the person's own", () => {
    const params = new URLSearchParams("tab=team&event=4");
    expect(readPanelAddress(params, tabsFor(member("manager")))).toEqual({ tab: "Overview", eventId: 4 });
    expect(readPanelAddress(params, tabsFor(member("door")))).toEqual({ tab: "Rounds", eventId: 4 });
    expect(readPanelAddress(new URLSearchParams(""), tabsFor(member("door"))).tab).toBe("Rounds");
    expect(readPanelAddress(new URLSearchParams("tab=user-details"), tabsFor(member("finance"))).tab).toBe(
      "User Details",
    );
    expect(readPanelAddress(params, tabsFor({ member: null })).tab).toBe("Team");
  });
});
