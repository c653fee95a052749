import { eventOfReply } from "../../../common/event-wire.ts";
import { api, mapReply, send } from "../../lib/api.ts";

/** One event, for the booking pages (the home page's list is get-events.ts), by the names the screens read. */
export const getEvent = async (id: number) =>
  mapReply(await send(api["get-event"][":id"].$get({ param: { id: String(id) } })), eventOfReply);
