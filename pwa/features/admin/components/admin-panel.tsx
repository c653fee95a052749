import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { RoundsConsole } from "../../rounds/components/rounds-console.tsx";
import { adminLogout, adminSession } from "../admin-api.ts";
import { useAdminStore } from "../admin-store.ts";
import { useAdminEvents } from "../use-admin-events.ts";
import { AddEventForm } from "./add-event-form.tsx";
import { EditEventForm } from "./edit-event-form.tsx";
import { LoginModal } from "./login-modal.tsx";
import { Overview } from "./overview.tsx";
import { UserDetails } from "./user-details.tsx";
import "../admin.css";

// Overview comes first in the row; the panel still opens on Add Event, as it always did,
// so the flows people (and scripts) know keep working (docs/decisions/014-organiser-desk.md).
const TABS = ["Overview", "Add Event", "Edit Event", "User Details", "Rounds"] as const;
type Tab = (typeof TABS)[number];
const tabId = (tab: Tab) => `admin-tab-${tab.replace(/\s+/g, "-").toLowerCase()}`;

/** The organiser's panel: locked behind the password modal until the server says the session is live. */
export function AdminPanel() {
  const status = useAdminStore((s) => s.status);
  const lock = useAdminStore((s) => s.lock);
  const unlock = useAdminStore((s) => s.unlock);

  useEffect(() => {
    let live = true;
    // A still-valid cookie from earlier skips the modal; any doubt shows it.
    adminSession()
      .then((reply) => live && (reply.ok && reply.data.admin ? unlock() : lock()))
      .catch(() => live && lock());
    return () => {
      live = false;
    };
  }, [lock, unlock]);

  if (status === "checking") {
    return (
      <p role="status" className="admin-loading">
        Checking your session...
      </p>
    );
  }
  if (status === "locked") return <LoginModal />;
  return <UnlockedPanel />;
}

function UnlockedPanel() {
  const [tab, setTab] = useState<Tab>("Add Event");
  const events = useAdminEvents();
  const lock = useAdminStore((s) => s.lock);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const onKey = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const next =
      e.key === "ArrowRight"
        ? TABS[(i + 1) % TABS.length]
        : e.key === "ArrowLeft"
          ? TABS[(i + TABS.length - 1) % TABS.length]
          : e.key === "Home"
            ? TABS[0]
            : e.key === "End"
              ? TABS[TABS.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <div className="admin-panel">
      <div className="admin-bar">
        <div role="tablist" aria-label="Admin sections" className="admin-tabs" onKeyDown={onKey}>
          {TABS.map((t) => (
            <button
              key={t}
              ref={(el) => {
                if (el) tabRefs.current.set(t, el);
              }}
              type="button"
              role="tab"
              id={tabId(t)}
              aria-selected={tab === t}
              aria-controls={`${tabId(t)}-panel`}
              tabIndex={tab === t ? 0 : -1}
              className="admin-tab"
              onClick={() => setTab(t)}
            >
              {t}
            </button>
          ))}
        </div>
        {/* The fourth tab is a page of its own (a phone at the door), so it is a link, not a tab. */}
        <Link to="/admin/door" className="admin-tab" style={{ marginRight: "auto", textDecoration: "none" }}>
          Door
        </Link>
        <button
          type="button"
          className="button admin-logout"
          onClick={() => {
            void adminLogout().finally(lock);
          }}
        >
          Log out
        </button>
      </div>
      <section role="tabpanel" id={`${tabId(tab)}-panel`} aria-labelledby={tabId(tab)} className="admin-tabpanel">
        {tab === "Overview" ? <Overview events={events} /> : null}
        {tab === "Add Event" ? <AddEventForm onSaved={() => void events.reload()} /> : null}
        {tab === "Edit Event" ? <EditEventForm events={events} /> : null}
        {tab === "User Details" ? <UserDetails events={events} /> : null}
        {tab === "Rounds" ? <RoundsConsole events={events} /> : null}
      </section>
    </div>
  );
}
