import { metBeforeLine, planGrid } from "../console-view.ts";
import type { RoundsState } from "../rounds-api.ts";

/** The plan as round × table, seated name first; the round being played is marked. */
export function PlanTable({ rounds }: { rounds: RoundsState }) {
  const grid = planGrid(rounds);
  if (grid.rows.length === 0) return <p className="empty">No rounds in the plan: nobody to pair yet.</p>;
  const seatedFirst = rounds.settings.seated === "female";
  // At One group and Mixed the two seats of a table are alike: the lower id is stored first.
  const bySide = rounds.format === "women_men";
  const playing = rounds.status === "running" || rounds.status === "paused" ? rounds.current : null;
  const again = rounds.metBefore.length;
  return (
    <>
      {/* Only where no plan of the night's shape could avoid it (docs/decisions/030-nobody-across-the-table-twice.md). */}
      {again ? (
        <p className="notice rounds-met-before" role="status">
          {metBeforeLine(again)}. Fewer rounds (Max rounds) leave more room to avoid it.
        </p>
      ) : null}
      {/* A plan wider than the phone scrolls sideways inside its own box; keyboard users need to
          focus the box to scroll it (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1) */}
      <section className="rounds-plan-wrap" aria-labelledby="rounds-plan-caption" tabIndex={0}>
        <table className="rounds-plan">
          <caption id="rounds-plan-caption">
            {bySide ? `Plan: rounds by table (${seatedFirst ? "women" : "men"} stay seated)` : "Plan: rounds by table"}
          </caption>
          <thead>
            <tr>
              <th scope="col">Round</th>
              {grid.tables.map((t) => (
                <th key={t} scope="col">
                  Table {t}
                </th>
              ))}
              <th scope="col">Sitting out</th>
            </tr>
          </thead>
          <tbody>
            {grid.rows.map((row) => (
              <tr key={row.round} aria-current={row.round === playing ? "true" : undefined}>
                <th scope="row">{row.round}</th>
                {row.cells.map((cell, i) =>
                  cell ? (
                    <td key={cell.table} className={cell.metBefore ? "rounds-again" : undefined}>
                      <span className="rounds-seated">{seatedFirst || !bySide ? cell.female : cell.male}</span>
                      <span className="rounds-mover">{seatedFirst || !bySide ? cell.male : cell.female}</span>
                      {cell.metBefore ? <span className="rounds-again-tag">Met before</span> : null}
                    </td>
                  ) : (
                    // A table nobody sits at this round is left blank, not listed as "Empty" (issue 46).
                    // biome-ignore lint/suspicious/noArrayIndexKey: one cell per table, in table order
                    <td key={`empty-${i}`} className="rounds-empty-cell" />
                  ),
                )}
                <td className="rounds-sitout">{row.sitOut.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
