// What other features use of the rounds: the console (the admin panel's Rounds tab, given it by
// routes/admin.tsx, and a host's phone).
export { RoundsConsole } from "./components/rounds-console.tsx";
