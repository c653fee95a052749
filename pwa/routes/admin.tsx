import { lazy } from "react";
import { useLocation } from "react-router-dom";
import { AdminPanel } from "../features/admin/components/admin-panel.tsx";
import { RoundsConsole } from "../features/rounds/index.ts";
import { AdminSetupPage } from "./admin-setup.tsx";

// The Reports tab and its charts load when the tab opens: a chunk of their own (issue 51).
const ReportsTab = lazy(async () => ({ default: (await import("../features/reports/index.ts")).ReportsTab }));

/**
 * `/admin`, and `/admin/setup` (a team member's set-up link), which the router sends here so that
 * its page needs no loader of its own in the home page's JavaScript (docs/decisions/052-the-team-pages.md).
 */
export function AdminPage() {
  const { pathname } = useLocation();
  if (pathname.replace(/\/$/, "") === "/admin/setup") return <AdminSetupPage />;
  return (
    <main className="page admin-page">
      <h1>Event admin</h1>
      <AdminPanel Rounds={RoundsConsole} Reports={ReportsTab} />
    </main>
  );
}
