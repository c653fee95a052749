// Message guests, on the Rounds tab and at the door: its own feature, so the door page loads it without
// the rounds console.
export { MessageGuests } from "./components/message-guests.tsx";
