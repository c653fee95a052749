import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { UpdatePromptAfterLoad } from "./app/update-prompt-after-load.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const app = (
  <StrictMode>
    <AppRouter />
    <UpdatePromptAfterLoad />
  </StrictMode>
);
// A page whose HTML holds its whole first screen (the build's first paint, pwa/app/first-paint.tsx) is
// hydrated: React keeps what is drawn. Any other page, the loading frame included, is drawn afresh.
if (root.hasAttribute("data-hydrate")) startTransition(() => void hydrateRoot(root, app));
else startTransition(() => createRoot(root).render(app));
