import { useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { UnsubscribePanel } from "../features/unsubscribe/components/unsubscribe-panel.tsx";
import { linkOf } from "../features/unsubscribe/unsubscribe-api.ts";

/** `/unsubscribe?c={contactId}&t={token}`: a marketing email's way out, open to anyone holding the link. */
export function UnsubscribePage() {
  const [search] = useSearchParams();
  const link = useMemo(() => linkOf(search), [search]);
  return (
    <main className="page">
      <UnsubscribePanel link={link} />
    </main>
  );
}
