import { useAdminStore } from "./admin-store.ts";
import { type ApiReply, api, send } from "./api.ts";

// The organiser's session, asked and opened by every staff screen (the admin panel, the door's gate and
// the login modal); lib/admin-store.ts mirrors its last answer.
export const adminSession = () => send(api["admin-session"].$get());
export const adminLogin = (password: string) => send(api["admin-login"].$post({ json: { password } }));
export const adminLogout = () => send(api["admin-logout"].$post());

/** Every staff call goes through here, so a lapsed session (401) locks the screen wherever it happens. */
export async function guarded<T>(call: Promise<ApiReply<T>>): Promise<ApiReply<T>> {
  const reply = await call;
  if (reply.status === 401) useAdminStore.getState().lock();
  return reply;
}
