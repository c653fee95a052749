import { type Block, compose, type EmailContent, type EmailEvent, type Sender } from "./email-frame.ts";

// The results of a night (api/night/results.ts, docs/decisions/021-results.md): the release's text and
// email, and the one reminder to rate before it.

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/**
 * What the report shows, and no more: a match may have chosen Email, Instagram or Nothing, so the
 * text promises no numbers (issue 46). The email says the same.
 */
export const SEE_WHO = "See who matched with you";

/**
 * The release text: how many matches and the report link; a kind line for nobody rather than a zero.
 * Friend matches are named beside the mutual ones where there are any.
 */
export function resultsText(input: { eventName: string; reportUrl: string; matches: number; friends: number }): string {
  const { eventName, reportUrl: link, matches, friends } = input;
  if (matches === 0 && friends === 0) {
    return `Your results from ${eventName} are in. No mutual match this time, but thank you for coming, and we hope to see you at the next one: ${link}`;
  }
  if (friends > 0) {
    const what = [
      matches > 0 ? plural(matches, "mutual match", "mutual matches") : null,
      plural(friends, "friend match", "friend matches"),
    ]
      .filter(Boolean)
      .join(" and ");
    return `Your results from ${eventName} are in: ${what}! ${SEE_WHO}: ${link}`;
  }
  const what = plural(matches, "mutual match", "mutual matches");
  return `Your results from ${eventName} are in: ${what}! ${SEE_WHO}: ${link}`;
}

/** The one reminder to rate, to a guest who has not rated everyone they met: when the matches come. */
export const ratingReminderText = (input: { eventName: string; resultsBy: string; ratingUrl: string }) =>
  `A reminder from ${input.eventName}: rate the people you met before your matches arrive at ${input.resultsBy}: ${input.ratingUrl}`;

/** The results are out: the same link the text carries, and how many mutual matches it shows. */
export function resultsEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  reportUrl: string;
  matches: number;
  /** Friend matches (Date or Friend both ways), at a night that offers Friend. */
  friends?: number;
}): EmailContent {
  const { event, sender } = input;
  const friends = input.friends ?? 0;
  const mutual = input.matches === 1 ? "1 mutual match" : `${input.matches} mutual matches`;
  const friendly = friends === 1 ? "1 friend match" : `${friends} friend matches`;
  const news =
    input.matches === 0 && friends === 0
      ? `The results from ${event.name} are in. No mutual match this time; your report shows your night.`
      : friends > 0
        ? `The results from ${event.name} are in: ${input.matches > 0 ? `${mutual} and ${friendly}` : friendly}. See who matched with you:`
        : `The results from ${event.name} are in: ${mutual}. See who matched with you:`;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: news },
    { link: { href: input.reportUrl, text: "See my results" } },
  ];
  return compose(`Your results from ${event.name}`, blocks, sender);
}
