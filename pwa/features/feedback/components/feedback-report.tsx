import { imageUrl } from "../../../lib/api.ts";
import { useFeedbackReport } from "../get-feedback.ts";
import { type FeedbackLink, INCOMPLETE_LINK, REPORT_NOT_YET } from "../link.ts";
import type { ReportEntry } from "../types.ts";
import "../feedback.css";
import { nationalPhone } from "../../../../common/national-phone.ts";
import { resultsWhen } from "../../../../common/results-time.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { ShareChoice } from "./share-choice.tsx";

/** Someone's details as they chose to share them with this guest, or the sentence saying they chose not to. */
function Contact({ person }: { person: ReportEntry }) {
  if (person.sharedNothing) {
    return <p className="report-note">{person.username} chose not to share contact details.</p>;
  }
  if (person.phone) {
    return (
      <a className="report-phone" href={`tel:${person.phone}`}>
        {nationalPhone(person.phone)}
      </a>
    );
  }
  if (person.email) {
    return (
      <a className="report-phone" href={`mailto:${person.email}`}>
        {person.email}
      </a>
    );
  }
  if (person.instagram) {
    return (
      <a
        className="report-phone"
        href={`https://www.instagram.com/${encodeURIComponent(person.instagram)}/`}
        rel="noopener noreferrer"
        target="_blank"
      >
        Instagram: @{person.instagram}
      </a>
    );
  }
  return null;
}

function ReportGroup({
  title,
  intro,
  empty,
  people,
  link,
}: {
  title: string;
  intro: string;
  empty: string;
  people: ReportEntry[];
  /** On a match: the guest chooses what each person may see of them. */
  link?: FeedbackLink;
}) {
  const id = `group-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="report-group" aria-labelledby={id}>
      <h2 id={id}>
        {/* A nought beside a heading reads as a verdict: the count shows only when someone is listed. */}
        {title} {people.length > 0 ? <span className="report-count">{people.length}</span> : null}
      </h2>
      {people.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <>
          <p className="report-intro">{intro}</p>
          <ul className="report-list">
            {people.map((p) => (
              <li key={p.id} className="report-person">
                <img src={imageUrl(p.image_name)} alt="" width={64} height={64} loading="lazy" decoding="async" />
                <div className="report-details">
                  <p className="report-name">{p.username}</p>
                  <Contact person={p} />
                  {link && p.myShare ? <ShareChoice link={link} person={p} /> : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The mutual-likes report of /EventFeedback. Its words are kind on purpose: an empty group or a like
 * that was not returned is said plainly, never as a rejection.
 */
export function FeedbackReportView({ link }: { link: FeedbackLink | null }) {
  const { state, reload } = useFeedbackReport(link);
  if (!link) {
    return (
      <p className="notice error" role="alert">
        {INCOMPLETE_LINK}
      </p>
    );
  }
  if (state.status === "loading" || state.status === "idle") {
    return (
      <p className="loading" role="status" aria-busy="true">
        Loading your matches…
      </p>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message={state.message} onRetry={reload} />;
  }
  if (state.status === "not-yet") {
    // Not an error: the link is right and simply early (the results are released at a set time,
    // docs/decisions/021-results.md), said on the venue's clock with its zone.
    return (
      <div className="notice" role="status">
        <p>
          {state.resultsAt !== undefined && state.timeZone
            ? `Your matches arrive at ${resultsWhen(state.resultsAt, state.timeZone, Date.now())}. Until then, everyone can still rate the people they met.`
            : REPORT_NOT_YET}
        </p>
        <button type="button" className="button" onClick={() => void reload()}>
          Check again
        </button>
      </div>
    );
  }
  const { mutual, friends, likedme, iliked, offersFriend } = state.report;
  return (
    <div className={`report${offersFriend ? " four" : ""}`}>
      <ReportGroup
        title="Mutual matches"
        intro="You liked each other. Say hello!"
        empty="No mutual matches from this night. That happens often, and every event brings new people to meet."
        people={mutual}
        link={link}
      />
      {offersFriend || friends.length > 0 ? (
        <ReportGroup
          title="Friend matches"
          intro="You'd both like to meet again, as friends or more. Say hello!"
          empty="No friend matches from this night."
          people={friends}
          link={link}
        />
      ) : null}
      <ReportGroup
        title="They liked you"
        intro="They enjoyed meeting you. Their details are here if you'd like to say hello."
        empty="Nothing more to show here."
        people={likedme}
      />
      <ReportGroup
        title="You liked"
        intro="People you enjoyed meeting. Numbers are only shared when both people like each other, to keep everyone's privacy."
        empty="Nothing more to show here."
        people={iliked}
      />
    </div>
  );
}
