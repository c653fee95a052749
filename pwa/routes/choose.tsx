import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { ChoosePanel } from "../features/choose/index.ts";

/** `/choose?t={token}`: a guest's refund, credit or new seat after their night was cancelled or moved. */
export function ChoosePage() {
  const [search] = useSearchParams();
  const [token] = useState(() => search.get("t") ?? "");
  return (
    <main className="page">
      <ChoosePanel token={token} />
    </main>
  );
}
