// The door's view and its store, which a host's phone (features/host/) shows as its Door tab.
export { DoorView } from "./components/door-view.tsx";
export { useDoorStore } from "./door-store.ts";
