import { useCallback, useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { PartnerGrid } from "../features/feedback/components/partner-grid.tsx";
import { readFeedbackLink } from "../features/feedback/link.ts";
import type { Partner } from "../features/feedback/types.ts";
import { YourNight } from "../features/night/components/your-night.tsx";
import { useMyRounds } from "../features/night/my-rounds.ts";
import { newestFirst } from "../features/night/night-view.ts";

/** `pollMs` is for tests; the page follows the host every few seconds (features/night/my-rounds.ts). */
export function ParticipantFeedbackPage({ pollMs }: { pollMs?: number } = {}) {
  const [params] = useSearchParams();
  // Memoised on the query text so the hooks below see one link object per link.
  const query = params.toString();
  const link = useMemo(() => readFeedbackLink(new URLSearchParams(query), "participant"), [query]);
  const { state: night } = useMyRounds(link, pollMs);
  const reply = night.status === "ready" ? night.reply : null;
  const arrange = useCallback((partners: Partner[]) => newestFirst(partners, reply), [reply]);
  // The grid learns that ratings closed (the results are out); the night on top then says so.
  const [ratingsClosed, setRatingsClosed] = useState(false);
  return (
    <main className="page feedback">
      {link ? <YourNight night={night} ratingsClosed={ratingsClosed} /> : null}
      <h1>Your Partners</h1>
      <PartnerGrid
        link={link}
        arrange={arrange}
        refreshKey={reply ? String(reply.current ?? 0) : undefined}
        onClosed={setRatingsClosed}
      />
    </main>
  );
}
