// What other features use of the rounds: the console (the admin panel's Rounds tab, given it by
// routes/admin.tsx, and a host's phone) and Message guests (the door's too).
export { MessageGuests } from "./components/message-guests.tsx";
export { RoundsConsole } from "./components/rounds-console.tsx";
