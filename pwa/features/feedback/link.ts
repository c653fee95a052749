/** The capability link texted to a participant: who they are, which event, and the token that proves it. */
export type FeedbackLink = { userID: number; eventID: number; token: string };

const ID = /^[1-9]\d{0,15}$/;

/**
 * Reads a feedback link's query. The two pages put the ids in opposite orders, as the texted links always did:
 * /ParticipantFeedback has par1 = user and par2 = event, /EventFeedback par1 = event and par2 = user.
 */
export function readFeedbackLink(params: URLSearchParams, page: "participant" | "event"): FeedbackLink | null {
  const par1 = params.get("par1") ?? "";
  const par2 = params.get("par2") ?? "";
  const token = params.get("t") ?? "";
  if (!ID.test(par1) || !ID.test(par2) || token === "" || token.length > 200) return null;
  const [userID, eventID] = page === "participant" ? [par1, par2] : [par2, par1];
  return { userID: Number(userID), eventID: Number(eventID), token };
}

export const INCOMPLETE_LINK = "This feedback link is incomplete. Please open the link from your text message again.";
export const INVALID_LINK = "This feedback link isn't valid. Please open the link from your text message again.";
export const REPORT_NOT_YET = "Your matches appear here once the results are out.";
