import { lazy, StrictMode, Suspense, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { afterFirstLoad } from "./lib/after-first-load.ts";
import "./styles.css";

// The service worker's registration and update prompt (with workbox-window) load after the first
// load has settled: nothing on the first screen needs them, and the home page's JavaScript has a
// budget counted over everything fetched before the network is idle (docs/decisions/007-scale.md).
const UpdatePrompt = lazy(async () => ({ default: (await import("./app/update-prompt.tsx")).UpdatePrompt }));

function UpdatePromptAfterLoad() {
  const [due, setDue] = useState(false);
  useEffect(() => afterFirstLoad(() => setDue(true)), []);
  return due ? (
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  ) : null;
}

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <AppRouter />
    <UpdatePromptAfterLoad />
  </StrictMode>,
);
