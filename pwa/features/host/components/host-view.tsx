import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { doorsOpenText } from "../../../../common/doors-open.ts";
import { formatAtVenue } from "../../../lib/event-labels.ts";
import { TabList } from "../../../lib/tab-list.tsx";
import { DoorView, useDoorStore } from "../../door/index.ts";
import { RoundsConsole } from "../../rounds/index.ts";
import { useHostAccess } from "../use-host-access.ts";
import "../../../components/ui/ui.css";
import "../host.css";

const TABS = ["Door", "Rounds"] as const;
type Tab = (typeof TABS)[number];
const tabId = (tab: Tab) => `host-tab-${tab.toLowerCase()}`;

/**
 * A host's phone (docs/decisions/022-host-access.md): the event's name and the link's label at the
 * top, then only the Door and the Rounds of that one event.
 */
export function HostView() {
  const [params, setParams] = useSearchParams();
  // Read once: the token leaves the address after signing in, and that must not sign in again.
  const [token] = useState(() => params.get("t"));
  const dropToken = useCallback(() => setParams({}, { replace: true }), [setParams]);
  const state = useHostAccess(token, dropToken);
  const [tab, setTab] = useState<Tab>("Door");
  const hostEventID = state.status === "ready" ? state.host.eventID : null;
  // The link's one event, whatever its status: the door's own default skips a night that has ended,
  // which left a host of an ended night before an empty chooser instead of that night, read-only.
  useEffect(() => {
    if (hostEventID !== null) void useDoorStore.getState().select(hostEventID);
  }, [hostEventID]);

  if (state.status === "checking") {
    return (
      <main className="page host-page">
        <h1>Host access</h1>
        <p role="status" className="admin-loading">
          Signing in...
        </p>
      </main>
    );
  }
  if (state.status === "not-open") {
    return (
      <main className="page host-page">
        <h1>Host access</h1>
        <div className="notice host-not-open" role="status">
          <p>
            {doorsOpenText(Date.parse(state.doorsOpenAt), state.timeZone, Date.now())}. This host link opens the door
            and the rounds from then: open it again at that time.
          </p>
        </div>
      </main>
    );
  }
  if (state.status !== "ready") {
    const message =
      state.status === "ended"
        ? "Your host access has ended. Ask the organiser for a new host link if you still need the door or the rounds."
        : state.status === "invalid"
          ? "This host link isn't valid. It may have been cut off when it was copied: ask the organiser for the link again."
          : "You're offline. Open the host link once with a network.";
    return (
      <main className="page host-page">
        <h1>Host access</h1>
        <div className="notice error host-ended" role="alert">
          <p>{message}</p>
        </div>
      </main>
    );
  }

  const { host } = state;

  return (
    <main className="page host-page">
      <header className="host-head">
        <h1>{host.eventName}</h1>
        <p className="host-label">
          Signed in as <strong>{host.label}</strong>
          <span className="host-until"> · until {formatAtVenue(host.expiresAt, host.timeZone)}</span>
        </p>
      </header>
      <TabList
        tabs={TABS}
        current={tab}
        onSelect={setTab}
        idOf={tabId}
        label="Host sections"
        className="admin-tabs host-tabs"
      />
      <section role="tabpanel" id={`${tabId(tab)}-panel`} aria-labelledby={tabId(tab)} className="host-tabpanel">
        {tab === "Door" ? <DoorView /> : <RoundsConsole fixedEvent={{ id: host.eventID, timeZone: host.timeZone }} />}
      </section>
    </main>
  );
}
