// The guest's choice of a cancelled or moved night (docs/decisions/059-short-of-numbers.md).
export { ChoosePanel } from "./components/choose-panel.tsx";
