// What other features use of the organiser's panel: the event's Start Event and End Event, which the
// Rounds tab shows beside the rounds (features/rounds/components/rounds-console.tsx).
export type { AdminEventDetail } from "./admin-api.ts";
export { getEventDetail } from "./admin-api.ts";
export { EventLifecycleActions } from "./components/event-lifecycle-actions.tsx";
