import { useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { FeedbackReportView } from "../features/feedback/components/feedback-report.tsx";
import { readFeedbackLink } from "../features/feedback/link.ts";

export function EventFeedbackPage() {
  const [params] = useSearchParams();
  const query = params.toString();
  const link = useMemo(() => readFeedbackLink(new URLSearchParams(query), "event"), [query]);
  return (
    <main className="page feedback">
      <h1>Your matches</h1>
      <FeedbackReportView link={link} />
    </main>
  );
}
