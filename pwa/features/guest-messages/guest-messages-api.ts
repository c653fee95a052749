import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";

// **Message guests** (docs/decisions/019-running-the-night.md): the organiser's or a host's text to the
// room, from the Rounds tab and from the door.
export type GuestAudience = Parameters<(typeof api)["message-guests"]["$post"]>[0]["json"]["to"];
export type GuestMessagePreview = Ok<(typeof api)["admin-event"][":id"]["message-guests"]["$get"]>;
export const previewGuestMessage = (eventID: number) =>
  guarded(send(api["admin-event"][":id"]["message-guests"].$get({ param: { id: String(eventID) } })));
export const messageGuests = (input: { eventID: number; to: GuestAudience; text: string; messageID: string }) =>
  guarded(send(api["message-guests"].$post({ json: input })));
