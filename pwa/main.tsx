import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import "./styles.css";

// The service worker's registration and update prompt load after the page: nothing on the first
// paint needs them, and the home page's JavaScript has a budget (docs/decisions/007-scale.md).
const UpdatePrompt = lazy(async () => ({ default: (await import("./app/update-prompt.tsx")).UpdatePrompt }));

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <AppRouter />
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  </StrictMode>,
);
