import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

// A report's chart, drawn by uPlot (issue 51: small, fast, loaded with the Reports tab alone). The
// table under it holds the same numbers and is its text alternative: the chart is one image named
// after that table. Its series differ by more than colour (a solid, a dashed and a dotted line, or
// filled and outlined bars, each named in the legend), and each colour has at least 3:1 contrast
// against the white card it is drawn on.

export type ChartSeries = { label: string; values: (number | null)[] };

export type ChartSpec = {
  /** Lines for months in a row; bars for things side by side (nights, formats, prices). */
  kind: "lines" | "bars";
  /** One label per point on the x axis (a month, a night's date, a format). */
  labels: string[];
  /** One to three series; a null value (a `fewer than 3` count) is left out of the drawing. */
  series: ChartSeries[];
  unit: "dollars" | "percent" | "count";
};

// On white: 5.0:1, 6.7:1 and 5.4:1.
const COLOURS = ["#c2366b", "#1d4ed8", "#1d7a46"] as const;
const DASHES: number[][] = [[], [8, 5], [2, 4]];
const INK = "#1f1a24";
const GRID = "#e7e1ec";
const HEIGHT = 240;

const wholeDollars = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", maximumFractionDigits: 0 });
const plain = new Intl.NumberFormat("en-AU", { maximumFractionDigits: 1 });
const axisValue = (unit: ChartSpec["unit"], v: number) =>
  unit === "dollars" ? wholeDollars.format(v) : unit === "percent" ? `${plain.format(v)}%` : plain.format(v);

/** A label cut to fit under its tick. */
const short = (label: string) => (label.length > 12 ? `${label.slice(0, 11)}…` : label);

function options(spec: ChartSpec, width: number): uPlot.Options {
  const n = spec.labels.length;
  const bars = spec.kind === "bars";
  const barWidth = spec.series.length > 1 ? 0.35 : 0.6;
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    // Hovering shows where a point is; dragging does not zoom (the table is where numbers are read).
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(n, 1) - 0.5] },
      // A share runs from 0 to 100%; money and counts from 0 (or below, a month of refunds) to a
      // little over the highest, so the top point is not on the edge.
      y: {
        range: (_u, min, max) =>
          spec.unit === "percent" ? [0, 100] : [Math.min(0, min * 1.15), max > 0 ? max * 1.15 : 1],
      },
    },
    axes: [
      {
        stroke: INK,
        grid: { show: false },
        ticks: { stroke: GRID },
        incrs: [1, 2, 3, 4, 5, 10, 20, 50, 100],
        space: 64,
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? short(spec.labels[v] ?? "") : "")),
      },
      {
        stroke: INK,
        grid: { stroke: GRID },
        ticks: { stroke: GRID },
        size: 64,
        // Counts and dollars in whole steps: no `0.2` guests on an empty month.
        incrs: [
          1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000, 250_000,
          500_000, 1_000_000, 2_500_000, 5_000_000,
        ],
        values: (_u, splits) => splits.map((v) => axisValue(spec.unit, v)),
      },
    ],
    series: [
      {},
      ...spec.series.map((s, i): uPlot.Series => {
        const colour = COLOURS[i % COLOURS.length]!;
        if (bars) {
          return {
            label: s.label,
            stroke: colour,
            width: 2,
            // The second series is outlined with a dashed edge: told apart without its colour.
            fill: i === 0 ? colour : "#ffffff",
            dash: DASHES[i % DASHES.length]!,
            points: { show: false },
            paths: uPlot.paths.bars?.({ size: [barWidth, 64], align: spec.series.length > 1 ? (i === 0 ? -1 : 1) : 0 }),
          };
        }
        return {
          label: s.label,
          stroke: colour,
          width: 2,
          dash: DASHES[i % DASHES.length]!,
          // Filled, hollow and filled again: a point's shape differs too where lines cross.
          points: { show: true, size: 8, stroke: colour, fill: i === 1 ? "#ffffff" : colour },
        };
      }),
    ],
  };
}

/** The swatch beside a legend label: the series' line or bar, as drawn. */
function Swatch({ kind, index }: { kind: ChartSpec["kind"]; index: number }) {
  const colour = COLOURS[index % COLOURS.length];
  const dash = DASHES[index % DASHES.length]!.join(" ");
  return (
    <svg width="32" height="14" aria-hidden="true" focusable="false">
      {kind === "bars" ? (
        <rect
          x="2"
          y="2"
          width="28"
          height="10"
          fill={index === 0 ? colour : "#ffffff"}
          stroke={colour}
          strokeWidth="2"
          strokeDasharray={dash}
        />
      ) : (
        <line x1="1" y1="7" x2="31" y2="7" stroke={colour} strokeWidth="2" strokeDasharray={dash} />
      )}
    </svg>
  );
}

/**
 * The chart, as one image whose name points to the table under it (`tableName`), and its legend. It
 * is drawn again when its numbers change and sized to its box (narrower on a phone).
 */
export function ReportChart({ spec, title, tableName }: { spec: ChartSpec; title: string; tableName: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(240, Math.floor(el.clientWidth));
    const data: uPlot.AlignedData = [spec.labels.map((_, i) => i), ...spec.series.map((s) => s.values)];
    const plot = new uPlot(options(spec, width()), data, el);
    const resized = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [spec]);

  return (
    <div className="report-chart">
      <div
        ref={box}
        className="report-chart-plot"
        role="img"
        aria-label={`${title}: a chart of the numbers in the table “${tableName}” below.`}
      />
      <ul className="report-legend" aria-label={`${title}: the chart's legend`}>
        {spec.series.map((s, i) => (
          <li key={s.label}>
            <Swatch kind={spec.kind} index={i} />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
