import { type KeyboardEvent, useRef } from "react";

type Props<T extends string> = {
  tabs: readonly T[];
  current: T;
  onSelect: (tab: T) => void;
  /** The tab button's element id; its panel's is this with `-panel`. */
  idOf: (tab: T) => string;
  label: string;
  className: string;
};

/**
 * A row of tabs as the WAI-ARIA tabs pattern has it: one tab in the page's Tab order, the arrow keys
 * (and Home, End) move between them, and each names the panel it controls. The organiser's panel and
 * a host's phone use it.
 */
export function TabList<T extends string>({ tabs, current, onSelect, idOf, label, className }: Props<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.indexOf(current);
    const next =
      e.key === "ArrowRight"
        ? tabs[(i + 1) % tabs.length]
        : e.key === "ArrowLeft"
          ? tabs[(i + tabs.length - 1) % tabs.length]
          : e.key === "Home"
            ? tabs[0]
            : e.key === "End"
              ? tabs[tabs.length - 1]
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    onSelect(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={className} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t}
          ref={(el) => {
            if (el) refs.current.set(t, el);
          }}
          type="button"
          role="tab"
          id={idOf(t)}
          aria-selected={current === t}
          aria-controls={`${idOf(t)}-panel`}
          tabIndex={current === t ? 0 : -1}
          className="admin-tab"
          onClick={() => onSelect(t)}
        >
          {t}
        </button>
      ))}
    </div>
  );
}
