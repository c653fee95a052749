import { AdminPanel } from "../features/admin/components/admin-panel.tsx";
import { RoundsConsole } from "../features/rounds/index.ts";

export function AdminPage() {
  return (
    <main className="page admin-page">
      <h1>Event admin</h1>
      <AdminPanel Rounds={RoundsConsole} />
    </main>
  );
}
// The set-up link's page shares this page's chunk (app/router.tsx says why).
export { AdminSetupPage } from "./admin-setup.tsx";
