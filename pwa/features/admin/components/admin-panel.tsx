import { type ComponentType, Suspense, useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { LoginModal } from "../../../components/ui/login-modal.tsx";
import { adminLogout, adminSession } from "../../../lib/admin-session.ts";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { TabList } from "../../../lib/tab-list.tsx";
import { useReply } from "../../../lib/use-reply.ts";
import { type SignedIn, SignInWithPasskeyButton, SignOutEverywhereButton, TeamTab } from "../../team/index.ts";
import { opensDoor, panelSearch, readPanelAddress, signedInLabel, type Tab, tabSlug, tabsFor } from "../admin-tabs.ts";
import { useAdminEvents } from "../use-admin-events.ts";
import { AddEventForm } from "./add-event-form.tsx";
import { EditEventForm } from "./edit-event-form.tsx";
import { HostAccess } from "./host-access.tsx";
import { Invite } from "./invite.tsx";
import { Overview } from "./overview.tsx";
import { UserDetails } from "./user-details.tsx";
import { WalletWarning } from "./wallet-warning.tsx";
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

/**
 * The Reports tab, handed in by the page as Rounds is: the reports feature and its charts (uPlot) are
 * a chunk of their own that the page loads when the tab opens (React.lazy), so neither the home page
 * nor the rest of the panel carries them (issue 51).
 */
export type ReportsTab = ComponentType;

type Panels = { Rounds: RoundsTab; Reports: ReportsTab };

type Session = { status: "ready"; signedIn: SignedIn } | { status: "error" };

/** How often an open panel asks whether its session still lives (a removed member's page locks). */
export const SESSION_CHECK_MS = 30_000;

/**
 * The organiser's panel: locked behind the sign-in modal until the server says the session is live,
 * then the tabs of whoever signed in (the owner, or a team member by their role: admin-tabs.ts).
 */
export function AdminPanel({ Rounds, Reports }: Panels) {
  const status = useAdminStore((s) => s.status);
  const lock = useAdminStore((s) => s.lock);
  const unlock = useAdminStore((s) => s.unlock);
  // Read on arrival (a still-valid cookie skips the modal; any doubt shows it) and after each sign-in,
  // which is when the panel learns who is signed in.
  const session = useReply(status === "locked" ? null : "session", {
    load: async (): Promise<Session> => {
      const reply = await adminSession();
      if (!(reply.ok && reply.data.admin)) {
        lock();
        return { status: "error" };
      }
      unlock();
      return { status: "ready", signedIn: { member: reply.data.member } };
    },
    failed: (): Session => {
      lock();
      return { status: "error" };
    },
  });

  if (status === "locked") return <LoginModal PasskeySignIn={SignInWithPasskeyButton} />;
  if (session.state.status !== "ready") {
    return (
      <p role="status" className="admin-loading">
        Checking your session...
      </p>
    );
  }
  return <UnlockedPanel Rounds={Rounds} Reports={Reports} signedIn={session.state.signedIn} />;
}

/**
 * Asks the server again whether the session lives, every SESSION_CHECK_MS and whenever the page comes
 * back into view: a member removed (or signed out everywhere) while their page is open sees the
 * sign-in modal without having to press anything.
 */
function useSessionWatch() {
  const lock = useAdminStore((s) => s.lock);
  useEffect(() => {
    const check = () => {
      if (document.visibilityState === "hidden") return;
      adminSession()
        .then((reply) => {
          if (!(reply.ok && reply.data.admin)) lock();
        })
        // Offline or unreachable says nothing about the session: the next check asks again.
        .catch(() => undefined);
    };
    const timer = setInterval(check, SESSION_CHECK_MS);
    document.addEventListener("visibilitychange", check);
    window.addEventListener("focus", check);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", check);
      window.removeEventListener("focus", check);
    };
  }, [lock]);
}

/**
 * The tabs, opening on the Overview (docs/decisions/014-organiser-desk.md). The tab and the event
 * picked in it live in the address (admin-tabs.ts): switching tabs or events replaces the entry,
 * while the links between them (an Overview row's, the one after saving) add one, so Back returns.
 */
function UnlockedPanel({ Rounds, Reports, signedIn }: Panels & { signedIn: SignedIn }) {
  const [params, setParams] = useSearchParams();
  const tabs = tabsFor(signedIn);
  const { tab, eventId } = readPanelAddress(params, tabs);
  const show = (next: Tab, id: number | null = null) => setParams(panelSearch(next, id), { replace: true });
  const pick = (id: number | null) => show(tab, id);
  const events = useAdminEvents();
  const lock = useAdminStore((s) => s.lock);
  const panel = useRef<HTMLElement>(null);
  useSessionWatch();
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
          tabs={tabs}
          current={tab}
          onSelect={(t) => {
            if (t !== tab) show(t);
          }}
          idOf={tabId}
          label="Admin sections"
          className="admin-tabs"
        />
        {/* The door is a page of its own (a phone at the door), so it is a link, not a tab. */}
        {opensDoor(signedIn) ? (
          <Link to="/admin/door" className="admin-tab" style={{ textDecoration: "none" }}>
            Door
          </Link>
        ) : null}
        <span className="signed-in-as" style={{ marginLeft: "auto" }}>
          {signedInLabel(signedIn)}
        </span>
        {/* The owner's is on the Team tab, under Your sessions. */}
        {signedIn.member ? <SignOutEverywhereButton who="member" /> : null}
        <button
          type="button"
          className="button admin-logout"
          onClick={() => {
            void adminLogout().finally(lock);
          }}
        >
          Sign out
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
        {tab === "Overview" ? (
          <>
            <WalletWarning />
            <Overview events={events} />
          </>
        ) : null}
        {tab === "Add Event" ? <AddEventForm onSaved={() => void events.reload()} /> : null}
        {tab === "Edit Event" ? <EditEventForm events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "User Details" ? <UserDetails events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Rounds" ? <Rounds events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Host access" ? <HostAccess events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Invite" ? <Invite events={events} eventId={eventId} onPick={pick} /> : null}
        {tab === "Reports" ? (
          <Suspense
            fallback={
              <p role="status" className="admin-loading">
                Loading the reports...
              </p>
            }
          >
            <Reports />
          </Suspense>
        ) : null}
        {tab === "Team" ? <TeamTab /> : null}
      </section>
    </div>
  );
}
