// The roles of the organiser's team and their labels (issue 49); the password's
// sign-in is the **Owner**, who has no role row. What each role opens is the server's
// (api/lib/roles.ts); the panel's tabs follow it (features/admin/admin-tabs.ts).
export const TEAM_ROLES = ["manager", "finance", "door"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const ROLE_LABELS: Record<TeamRole | "owner", string> = {
  owner: "Owner",
  manager: "Manager",
  finance: "Finance",
  door: "Door",
};

/** What each role may do, in a line, for the Add member form's choice. */
export const ROLE_HINTS: Record<TeamRole, string> = {
  manager: "Everything but the Team tab and the owner's sign-in settings.",
  finance: "Refunds, invoices, the participants list and CSV, the Overview.",
  door: "The door and the rounds of any event on the day it runs.",
};

/** Who holds the session, as `GET /api/admin-session` says: `member` null is the owner. */
export type SignedIn = { member: { id: number; name: string; role: TeamRole } | null };
