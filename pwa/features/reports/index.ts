// The organiser's Reports tab (issue 51), loaded by the admin page when the tab opens (routes/admin.tsx).
export { ReportsTab } from "./components/reports-tab.tsx";
