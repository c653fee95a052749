import { ROLE_LABELS, type SignedIn, type TeamRole } from "../team/index.ts";

/**
 * The panel's tabs and where each one is in the address: `/admin` is the Overview,
 * `/admin?tab=edit-event&event=7` the Edit tab with event 7 picked. Keeping the tab and the picked
 * event in the address lets a row of the Overview (or the message after saving) link straight to an
 * event's form or participants, and Back return to where the organiser was.
 */
export const TABS = [
  "Overview",
  "Add Event",
  "Edit Event",
  "User Details",
  "Rounds",
  "Host access",
  "Invite",
  "Reports",
  "Team",
] as const;
export type Tab = (typeof TABS)[number];

/**
 * The tabs each person sees (issue 49): the owner every one; a Manager all but **Team**; Finance the
 * Overview, User Details (the participants, refunds and invoices) and Reports (issue 51: money, the
 * GST summary); Door the Rounds, beside the door's own page. The server refuses every call a role may not make; this only hides what would
 * answer 403.
 */
const ROLE_TABS: Record<TeamRole, readonly Tab[]> = {
  manager: TABS.filter((t) => t !== "Team"),
  finance: ["Overview", "User Details", "Reports"],
  door: ["Rounds"],
};

export const tabsFor = ({ member }: SignedIn): readonly Tab[] => (member ? ROLE_TABS[member.role] : TABS);

/** Whether the door's page (`/admin/door`) is theirs: the owner, a Manager and Door; not Finance. */
export const opensDoor = ({ member }: SignedIn) => member?.role !== "finance";

/** `Priya (Finance)`, or `Owner`: who the panel's header says is signed in. */
export const signedInLabel = ({ member }: SignedIn) =>
  member ? `${member.name} (${ROLE_LABELS[member.role]})` : ROLE_LABELS.owner;

/** `Edit Event` as `edit-event`: the tab's name in the address and in its element ids. */
export const tabSlug = (tab: Tab) => tab.replace(/\s+/g, "-").toLowerCase();

/**
 * The tab and event an address names, among the tabs this person sees (all by default): an unknown
 * tab, or one of another role's, is the first of theirs (the Overview for most); a malformed event none.
 */
export function readPanelAddress(
  params: URLSearchParams,
  tabs: readonly Tab[] = TABS,
): { tab: Tab; eventId: number | null } {
  const tab = tabs.find((t) => tabSlug(t) === params.get("tab")) ?? tabs[0] ?? "Overview";
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
