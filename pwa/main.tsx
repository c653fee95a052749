import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { UpdatePrompt } from "./app/update-prompt.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <AppRouter />
    <UpdatePrompt />
  </StrictMode>,
);
