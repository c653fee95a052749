import { type ComponentType, useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { LoginModal } from "../../../components/ui/login-modal.tsx";
import { adminLogout, adminSession } from "../../../lib/admin-session.ts";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { TabList } from "../../../lib/tab-list.tsx";
import { panelSearch, readPanelAddress, TABS, type Tab, tabSlug } from "../admin-tabs.ts";
import { useAdminEvents } from "../use-admin-events.ts";
import { AddEventForm } from "./add-event-form.tsx";
import { EditEventForm } from "./edit-event-form.tsx";
import { HostAccess } from "./host-access.tsx";
import { Invite } from "./invite.tsx";
import { Overview } from "./overview.tsx";
import { UserDetails } from "./user-details.tsx";
import "../admin.css";

const tabId = (tab: Tab) => `admin-tab-${tabSlug(tab)}`;

/**
 * The Rounds tab, handed in by the page (routes/admin.tsx): it is the rounds feature's console, which
 * shows this panel's Start Event and End Event (features/admin/index.ts), so the panel takes it as a prop
 * rather than importing it back (docs/decisions/047-the-phones-code-by-what-it-is-for.md).
 */
export type RoundsTab = ComponentType<{
  events: ReturnType<typeof useAdminEvents>;
  eventId: number | null;
  onPick(id: number | null): void;
}>;

/** The organiser's panel: locked behind the password modal until the server says the session is live. */
export function AdminPanel({ Rounds }: { Rounds: RoundsTab }) {
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
  return <UnlockedPanel Rounds={Rounds} />;
}

/**
 * The tabs, opening on the Overview (docs/decisions/014-organiser-desk.md). The tab and the event
 * picked in it live in the address (admin-tabs.ts): switching tabs or events replaces the entry,
 * while the links between them (an Overview row's, the one after saving) add one, so Back returns.
 */
function UnlockedPanel({ Rounds }: { Rounds: RoundsTab }) {
  const [params, setParams] = useSearchParams();
  const { tab, eventId } = readPanelAddress(params);
  const show = (next: Tab, id: number | null = null) => setParams(panelSearch(next, id), { replace: true });
  const pick = (id: number | null) => show(tab, id);
  const events = useAdminEvents();
  const lock = useAdminStore((s) => s.lock);
  const panel = useRef<HTMLElement>(null);
  // A link that switched the tab took its own element away with the old tab: focus would fall to the
  // page's start, so it goes to the new panel, shown from its top (the link may have been far down).
  const shown = `${tab}:${eventId}`;
  const firstShown = useRef(shown);
  useEffect(() => {
    if (shown === firstShown.current) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    panel.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [shown]);

  return (
    <div className="admin-panel">
      <div className="admin-bar">
        <TabList
          tabs={TABS}
          current={tab}
          onSelect={(t) => {
            if (t !== tab) show(t);
          }}
          idOf={tabId}
          label="Admin sections"
          className="admin-tabs"
        />
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
      <section
        ref={panel}
        role="tabpanel"
        id={`${tabId(tab)}-panel`}
        aria-labelledby={tabId(tab)}
        className="admin-tabpanel"
        tabIndex={-1}
      >
        {tab === "Overview" ? <Overview events={events} /> : null}
        {tab === "Add Event" ? <AddEventForm onSaved={() => void events.reload()} /> : null}
        {tab === "Edit Event" ? <EditEventForm events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "User Details" ? <UserDetails events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Rounds" ? <Rounds events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Host access" ? <HostAccess events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Invite" ? <Invite events={events} eventId={eventId} onPick={pick} /> : null}
      </section>
    </div>
  );
}
