import { AdminPanel } from "../features/admin/components/admin-panel.tsx";

export function AdminPage() {
  return (
    <main className="page admin-page">
      <h1>Event admin</h1>
      <AdminPanel />
    </main>
  );
}
