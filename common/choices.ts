/** A partner choice as stored: Date/Like (`like`), Friend (`friend`), No/Dislike (`dislike`). */
export type Choice = "like" | "friend" | "dislike";

/**
 * The buttons a guest (and a paper scorecard) offers for one partner. A two-choice night keeps the
 * spec's **Like** and **Dislike**; a night that offers Friend (issue 37) says **Date**, **Friend**
 * and **No**, the words its guests expect, stored as `like`, `friend`, `dislike`.
 */
export function choicesOf(offersFriend: boolean): readonly { value: Choice; label: string }[] {
  return offersFriend
    ? [
        { value: "like", label: "Date" },
        { value: "friend", label: "Friend" },
        { value: "dislike", label: "No" },
      ]
    : [
        { value: "like", label: "Like" },
        { value: "dislike", label: "Dislike" },
      ];
}
