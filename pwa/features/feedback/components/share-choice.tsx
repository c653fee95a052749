import { useId, useState } from "react";
import { api, CallFailed, send } from "../../../lib/api.ts";
import type { FeedbackLink } from "../link.ts";
import type { ReportEntry } from "../types.ts";

type Share = NonNullable<ReportEntry["myShare"]>;

const OPTIONS: { value: Share; label: string }[] = [
  { value: "mobile", label: "Mobile" },
  { value: "email", label: "Email" },
  { value: "instagram", label: "Instagram" },
  { value: "nothing", label: "Nothing" },
];

/**
 * On a match, what the other person may see of this guest (issue 37): chosen once here, changed any
 * time, and in effect at once. Mobile, Email and Nothing save on the tap; Instagram asks for the
 * handle first. The choice also becomes the default for the guest's next matches.
 */
export function ShareChoice({ link, person }: { link: FeedbackLink; person: ReportEntry }) {
  const id = useId();
  const [share, setShare] = useState<Share>(person.myShare ?? "mobile");
  const [instagram, setInstagram] = useState(person.myInstagram ?? "");
  const [status, setStatus] = useState<{ kind: "saved" | "error" | "saving"; text: string } | null>(null);

  const save = async (next: Share, handle?: string) => {
    setStatus({ kind: "saving", text: "Saving…" });
    try {
      const reply = await send(
        api["share-contact"].$post({
          json: {
            eventID: link.eventID,
            userID: link.userID,
            token: link.token,
            partnerID: person.id,
            share: next,
            ...(next === "instagram" ? { instagram: handle ?? "" } : {}),
          },
        }),
      );
      if (reply.ok) {
        setStatus({ kind: "saved", text: savedText(person.username, reply.data.share, reply.data.instagram) });
      } else {
        setStatus({ kind: "error", text: reply.data.error || "That didn't save. Please try again." });
      }
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setStatus({
        kind: "error",
        text: "You seem to be offline. Your choice was not saved; try again once connected.",
      });
    }
  };

  return (
    // Named for the person to a screen reader (one such group per match); the visible legend stays short.
    <fieldset className="share-choice" aria-label={`What ${person.username} can see of you`}>
      <legend>What they can see of you</legend>
      <div className="share-options">
        {OPTIONS.map((option) => (
          <label key={option.value} className="share-option">
            <input
              type="radio"
              name={`${id}-share`}
              value={option.value}
              checked={share === option.value}
              onChange={() => {
                setShare(option.value);
                if (option.value === "instagram") {
                  setStatus(null);
                  if (instagram.trim()) void save("instagram", instagram);
                } else void save(option.value);
              }}
            />
            {option.label}
          </label>
        ))}
      </div>
      {share === "instagram" ? (
        <form
          className="share-instagram"
          onSubmit={(e) => {
            e.preventDefault();
            void save("instagram", instagram);
          }}
        >
          <label htmlFor={`${id}-instagram`}>Your Instagram handle</label>
          <input
            id={`${id}-instagram`}
            value={instagram}
            onChange={(e) => setInstagram(e.target.value)}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="@yourname"
            maxLength={31}
          />
          <button type="submit" className="button">
            Save
          </button>
        </form>
      ) : null}
      <p className={`share-status ${status?.kind ?? ""}`} role="status">
        {status?.text ?? ""}
      </p>
    </fieldset>
  );
}

function savedText(name: string, share: Share, instagram: string | null): string {
  switch (share) {
    case "mobile":
      return `Saved: ${name} sees your mobile.`;
    case "email":
      return `Saved: ${name} sees your email.`;
    case "instagram":
      return `Saved: ${name} sees your Instagram, @${instagram ?? ""}.`;
    case "nothing":
      return `Saved: ${name} sees none of your contact details.`;
  }
}
