import { useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { PartnerGrid } from "../features/feedback/components/partner-grid.tsx";
import { readFeedbackLink } from "../features/feedback/link.ts";

export function ParticipantFeedbackPage() {
  const [params] = useSearchParams();
  // Memoised on the query text so the hooks below see one link object per link.
  const query = params.toString();
  const link = useMemo(() => readFeedbackLink(new URLSearchParams(query), "participant"), [query]);
  return (
    <main className="page feedback">
      <h1>Your Partners</h1>
      <PartnerGrid link={link} />
    </main>
  );
}
