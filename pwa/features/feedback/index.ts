// What the guest's night (features/night/) reads of the ratings: the texted link that names the guest.
export type { FeedbackLink } from "./link.ts";
