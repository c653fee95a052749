import { imageUrl } from "../../../lib/api.ts";
import type { FeedbackValue } from "../../../lib/offline-db.ts";
import type { Partner } from "../types.ts";

type Props = {
  partner: Partner;
  choice?: FeedbackValue;
  /** Ratings are closed: the choice shows, read-only. */
  disabled?: boolean;
  onChoose(value: FeedbackValue): void;
};

export function PartnerCard({ partner, choice, disabled = false, onChoose }: Props) {
  const nameId = `partner-${partner.id}-name`;
  return (
    <article className="partner-card" aria-labelledby={nameId} data-choice={choice ?? "none"}>
      <img
        className="partner-photo"
        src={imageUrl(partner.image_name)}
        alt={partner.username}
        width={320}
        height={320}
        loading="lazy"
        decoding="async"
      />
      <h2 id={nameId} className="partner-name">
        {partner.username}
      </h2>
      <div className="partner-actions">
        <button
          type="button"
          className="button choice like"
          aria-pressed={choice === "like"}
          aria-describedby={nameId}
          disabled={disabled}
          onClick={() => onChoose("like")}
        >
          Like
        </button>
        <button
          type="button"
          className="button choice dislike"
          aria-pressed={choice === "dislike"}
          aria-describedby={nameId}
          disabled={disabled}
          onClick={() => onChoose("dislike")}
        >
          Dislike
        </button>
      </div>
    </article>
  );
}
