/**
 * The panel's tabs and where each one is in the address: `/admin` is the Overview,
 * `/admin?tab=edit-event&event=7` the Edit tab with event 7 picked. Keeping the tab and the picked
 * event in the address lets a row of the Overview (or the message after saving) link straight to an
 * event's form or participants, and Back return to where the organiser was.
 */
export const TABS = ["Overview", "Add Event", "Edit Event", "User Details", "Rounds", "Host access", "Invite"] as const;
export type Tab = (typeof TABS)[number];

/** `Edit Event` as `edit-event`: the tab's name in the address and in its element ids. */
export const tabSlug = (tab: Tab) => tab.replace(/\s+/g, "-").toLowerCase();

/** The tab and event an address names; an unknown tab is the Overview, a malformed event none. */
export function readPanelAddress(params: URLSearchParams): { tab: Tab; eventId: number | null } {
  const tab = TABS.find((t) => tabSlug(t) === params.get("tab")) ?? "Overview";
  const event = params.get("event") ?? "";
  return { tab, eventId: /^[1-9]\d{0,15}$/.test(event) ? Number(event) : null };
}

/** The query string of a tab, with an event picked in it: `?tab=user-details&event=7`. */
export function panelSearch(tab: Tab, eventId: number | null = null): string {
  const params = new URLSearchParams();
  if (tab !== "Overview") params.set("tab", tabSlug(tab));
  if (eventId !== null) params.set("event", String(eventId));
  const search = params.toString();
  return search ? `?${search}` : "";
}
