import { formatAtVenue } from "../../../lib/event-labels.ts";
import type { TeamMember } from "../team-api.ts";
import { ROLE_LABELS } from "../team-roles.ts";

/** The organiser's own clock: a last sign-in is read by the owner where they are, not at a venue. */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const SIGN_IN_LABELS: Record<string, string> = { passkey: "Passkey", totp: "Password and authenticator app" };

/** `Passkey`, `Password and authenticator app`, or that the set-up link is not used yet. */
export const signInLabel = (kinds: readonly string[]) =>
  kinds.length === 0 ? "Not set up yet" : kinds.map((k) => SIGN_IN_LABELS[k] ?? k).join(", ");

/** `2026-12-01 07:05 PM AEDT` on the organiser's clock, or `Never`. */
export const lastSignInLabel = (at: string | null, zone = localZone()) => formatAtVenue(at, zone) || "Never";

type Props = {
  members: TeamMember[];
  busyId: number | null;
  onResend(member: TeamMember): void;
  onRemove(member: TeamMember): void;
  onSignOut(member: TeamMember): void;
};

/** The team, one person a row: who, their role and state, how they sign in, and the row's actions. */
export function MemberList({ members, busyId, onResend, onRemove, onSignOut }: Props) {
  return (
    <ul className="team-members" aria-label="Team members">
      {members.map((m) => (
        <li key={m.id} className="team-member">
          <div className="team-member-who">
            <strong>{m.name}</strong>
            <span className="team-member-email">{m.email}</span>
          </div>
          <dl className="team-member-facts">
            <div>
              <dt>Role</dt>
              <dd>{ROLE_LABELS[m.role]}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd className={`team-status ${m.status}`}>{m.status === "active" ? "Active" : "Invited"}</dd>
            </div>
            <div>
              <dt>Sign-in</dt>
              <dd>{signInLabel(m.signIn)}</dd>
            </div>
            <div>
              <dt>Last sign-in</dt>
              <dd>{lastSignInLabel(m.lastSignInAt)}</dd>
            </div>
          </dl>
          <div className="admin-actions team-member-actions">
            {/* A set-up link is for someone who has not used theirs: once active, there is none to resend. */}
            {m.status === "invited" ? (
              <button
                type="button"
                className="button"
                disabled={busyId === m.id}
                aria-label={`Resend ${m.name}'s set-up link`}
                onClick={() => onResend(m)}
              >
                Resend
              </button>
            ) : null}
            <button
              type="button"
              className="button"
              disabled={busyId === m.id}
              aria-label={`Sign out everywhere: ${m.name}`}
              onClick={() => onSignOut(m)}
            >
              Sign out everywhere
            </button>
            <button
              type="button"
              className="button danger"
              disabled={busyId === m.id}
              aria-label={`Remove ${m.name}`}
              onClick={() => onRemove(m)}
            >
              Remove
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
