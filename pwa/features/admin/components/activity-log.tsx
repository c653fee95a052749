import { ErrorNotice } from "../../../lib/error-notice.tsx";
import type { ActivityEntry } from "../admin-api.ts";
import { formatAtVenue } from "../format.ts";

// The Host access tab's **Activity** (host-access.tsx): the event's changes, newest first, each
// with who made it.

type Loaded<T> = { status: "idle" | "loading" | "error" } | { status: "ready"; rows: T[] };
/** Whether older entries may be there (a full page came back last), or an older page being read. */
export type Older = "none" | "more" | "loading" | "error";

/** What an erased attendee's row says (api/ops/retention.ts), shown for a person with no name. */
const ERASED_NAME = "Erased attendee";
const personName = (person: ActivityEntry["person"]) => person?.name ?? ERASED_NAME;

/**
 * Who made a change: the organiser (the owner), a team member as the server wrote them
 * (`Priya (Finance)`), a host by the link's label, the server (failed logins) or a guest (their own cancel).
 */
function actorLine(entry: ActivityEntry) {
  if (entry.actorKind === "organiser") return "Organiser";
  if (entry.actorKind === "member") return entry.actor;
  if (entry.actorKind === "system") return "System";
  if (entry.actorKind === "guest") return "Guest";
  return `${entry.actor} (host)`;
}

/** What a member did, as a sentence (`Priya (Finance) refunded Arjun Mehta`), where the action has a verb. */
const MEMBER_VERBS: Partial<Record<ActivityEntry["action"], string>> = {
  refund: "refunded",
  "check-in": "checked in",
  "check-in undone": "undid the check-in of",
  "marked left": "marked as left",
};

/** `refunded Arjun Mehta`, or null when the entry reads better as the usual line. */
function memberSentence(entry: ActivityEntry) {
  const verb = MEMBER_VERBS[entry.action];
  if (entry.actorKind !== "member" || !verb || !entry.person) return null;
  const times = entry.count > 1 ? ` · ${entry.count} times` : "";
  return `${verb} ${personName(entry.person)}${times}`;
}

/** `paper card entered · Imran Ali · like for Kavya Rao`: names are read now, never stored. */
function whatLine(entry: ActivityEntry) {
  const parts: string[] = [entry.action];
  if (entry.person) parts.push(personName(entry.person));
  const detail = entry.otherPerson ? `${entry.detail ?? ""} for ${personName(entry.otherPerson)}`.trim() : entry.detail;
  if (detail) parts.push(detail);
  if (entry.count > 1) parts.push(`${entry.count} times`);
  return parts.join(" · ");
}

export function ActivitySection(props: {
  activity: Loaded<ActivityEntry>;
  older: Older;
  zone: string;
  /** Reads the event's links and activity again. */
  onReload(): void;
  onOlder(): void;
}) {
  const { activity, older, zone } = props;
  return (
    <section className="host-access-section" aria-labelledby="activity-title">
      <div className="host-access-head">
        <h2 id="activity-title">Activity</h2>
        <button type="button" className="button" onClick={() => props.onReload()}>
          Refresh
        </button>
      </div>
      {activity.status === "loading" ? (
        <p role="status" className="admin-loading">
          Loading the activity...
        </p>
      ) : null}
      {activity.status === "error" ? (
        <ErrorNotice message="Couldn't load the activity." onRetry={() => props.onReload()} />
      ) : null}
      {activity.status === "ready" && activity.rows.length === 0 ? (
        <p className="empty">Nothing recorded for this event yet.</p>
      ) : null}
      {activity.status === "ready" && activity.rows.length > 0 ? (
        <ol className="activity-list" aria-label="Activity, newest first">
          {activity.rows.map((entry) => (
            <li key={entry.id} className="activity-entry">
              <span className="activity-when">{formatAtVenue(entry.at, zone)}</span>
              <span className="activity-what">
                <strong className={`activity-actor activity-actor-${entry.actorKind}`}>{actorLine(entry)}</strong>
                {memberSentence(entry) === null ? " · " : " "}
                <span>{memberSentence(entry) ?? whatLine(entry)}</span>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {activity.status === "ready" && older !== "none" ? (
        <div className="activity-older">
          {older === "error" ? <p role="alert">Couldn't load older entries.</p> : null}
          <button type="button" className="button" disabled={older === "loading"} onClick={() => props.onOlder()}>
            {older === "loading" ? "Loading older entries..." : "Older entries"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
