import { imageUrl } from "../../../lib/api.ts";
import { type ListedPerson, peopleLists, presentLine } from "../console-view.ts";
import type { RoundsState } from "../rounds-api.ts";

type Props = {
  rounds: RoundsState;
  /** The network is there and no call is under way for this person. */
  canChange(userID: number): boolean;
  onLeft(userID: number, left: boolean): void;
};

function Person({ person, canChange, onLeft }: { person: ListedPerson } & Omit<Props, "rounds">) {
  const nameId = `rounds-person-${person.userID}`;
  return (
    <li className={`rounds-person${person.left ? " gone" : ""}`}>
      <img src={imageUrl(person.image_name)} alt="" width={40} height={40} loading="lazy" decoding="async" />
      <span id={nameId} className="rounds-person-name">
        {person.username}
        {person.isNew ? <span className="rounds-new">New</span> : null}
      </span>
      {/* Outside the name, which describes the Left button. */}
      {person.age === null || person.age === undefined ? null : (
        <span className="rounds-person-age">
          <span className="sr-only">age </span>
          {person.age}
        </span>
      )}
      <button
        type="button"
        className="button rounds-left"
        aria-pressed={person.left}
        aria-describedby={nameId}
        disabled={!canChange(person.userID)}
        onClick={() => onLeft(person.userID, !person.left)}
      >
        Left
      </button>
    </li>
  );
}

/** Who is here (checked in, not gone home), with **Left** for someone who went home; tap again to undo. */
export function PresentList({ rounds, canChange, onLeft }: Props) {
  const { present, left } = peopleLists(rounds);
  // One group and Mixed are one pool: everyone in one list (Mixed's answers stay with the planner).
  const bySide = rounds.format === "women_men";
  const women = bySide ? present.filter((p) => p.gender === "female") : [];
  const men = bySide ? present.filter((p) => p.gender === "male") : [];
  const everyone = bySide ? [] : [...present].sort((a, b) => a.username.localeCompare(b.username));
  const newcomers = rounds.status === "none" ? [] : present.filter((p) => p.isNew);
  const row = (p: ListedPerson) => <Person key={p.userID} person={p} canChange={canChange} onLeft={onLeft} />;
  return (
    <section className="rounds-card" aria-labelledby="rounds-present-title">
      <h2 id="rounds-present-title">
        {presentLine(rounds.present, { format: rounds.format, total: rounds.presentTotal })}
      </h2>
      {newcomers.length ? (
        <p className="notice rounds-arrivals">
          {newcomers.length === 1 ? "1 new arrival" : `${newcomers.length} new arrivals`} since the plan:{" "}
          {rounds.status === "finished" ? "the rounds are over." : "Re-plan rounds to seat them."}
        </p>
      ) : null}
      {present.length === 0 ? (
        <p className="empty">Nobody is checked in yet. People show here as the door checks them in.</p>
      ) : null}
      {everyone.length ? <ul className="rounds-people">{everyone.map(row)}</ul> : null}
      {women.length ? (
        <>
          <h3>Women</h3>
          <ul className="rounds-people">{women.map(row)}</ul>
        </>
      ) : null}
      {men.length ? (
        <>
          <h3>Men</h3>
          <ul className="rounds-people">{men.map(row)}</ul>
        </>
      ) : null}
      {left.length ? (
        <>
          <h3>Went home</h3>
          <ul className="rounds-people">{left.map(row)}</ul>
        </>
      ) : null}
    </section>
  );
}
