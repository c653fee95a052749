import { api, send } from "../../lib/api.ts";

/** One event, for the booking pages (the home page's list is get-events.ts). */
export const getEvent = (id: number) => send(api["get-event"][":id"].$get({ param: { id: String(id) } }));
