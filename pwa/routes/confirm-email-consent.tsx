import { useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { EmailConsentPanel } from "../features/email-consent/components/email-consent-panel.tsx";
import { linkOf } from "../features/email-consent/email-consent-api.ts";

/** `/confirm-email-consent?c={contactId}&t={token}`: the address's own yes to emails about future events. */
export function ConfirmEmailConsentPage() {
  const [search] = useSearchParams();
  const link = useMemo(() => linkOf(search), [search]);
  return (
    <main className="page">
      <EmailConsentPanel link={link} />
    </main>
  );
}
