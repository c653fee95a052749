// The results panel, shown under the rounds (features/rounds/components/rounds-console.tsx).
export { ResultsPanel } from "./components/results-panel.tsx";
