import { useSearchParams } from "react-router-dom";
import { SetupFlow } from "../features/team/index.ts";

/** The set-up link a team member is emailed (`/admin/setup?t={token}`, issue 49). */
export function AdminSetupPage() {
  const [params] = useSearchParams();
  return (
    <main className="page admin-page">
      <h1>Your sign-in</h1>
      <SetupFlow token={params.get("t")} />
    </main>
  );
}
