// What other features use of the team (issue 49): the roles and their labels (the admin panel's tabs
// follow them), the Team tab, the set-up link's page, and the passkey sign-in the admin page hands to
// the login modal.
export { SignOutEverywhereButton } from "./components/own-sign-out.tsx";
export { SetupFlow } from "./components/setup-flow.tsx";
export { TeamTab } from "./components/team-tab.tsx";
export { SignInWithPasskeyButton } from "./passkey-buttons.tsx";
export { ROLE_LABELS, type SignedIn, TEAM_ROLES, type TeamRole } from "./team-roles.ts";
