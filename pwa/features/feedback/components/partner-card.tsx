import { choicesOf } from "../../../../common/choices.ts";
import { imageUrl } from "../../../lib/api.ts";
import type { FeedbackValue } from "../../../lib/offline-db.ts";
import type { Partner } from "../types.ts";

type Props = {
  partner: Partner;
  /** Date, Friend and No (issue 37) instead of Like and Dislike. */
  offersFriend?: boolean;
  choice?: FeedbackValue;
  /** Ratings are closed: the choice shows, read-only. */
  disabled?: boolean;
  onChoose(value: FeedbackValue): void;
};

export function PartnerCard({ partner, offersFriend = false, choice, disabled = false, onChoose }: Props) {
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
        {choicesOf(offersFriend).map(({ value, label }) => (
          <button
            key={value}
            type="button"
            className={`button choice ${value}`}
            aria-pressed={choice === value}
            aria-describedby={nameId}
            disabled={disabled}
            onClick={() => onChoose(value)}
          >
            {label}
          </button>
        ))}
      </div>
    </article>
  );
}
