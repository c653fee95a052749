import { api, send } from "./api.ts";

// The organiser's session, asked and opened by every staff screen (the admin panel, the door's gate and
// the login modal); lib/admin-store.ts mirrors its last answer.
export const adminSession = () => send(api["admin-session"].$get());
export const adminLogin = (password: string) => send(api["admin-login"].$post({ json: { password } }));
export const adminLogout = () => send(api["admin-logout"].$post());
