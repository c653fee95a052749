import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { usePublicConfig } from "../get-public-config.ts";
import { useExternalScript } from "../use-external-script.ts";
import "../landing.css";

const brand = "Saathi Speed Dating";

/** The landing page's own navigation bar: logo, collapsible menu and contact line. */
export function LandingNav() {
  const config = usePublicConfig();
  const ready = config.status === "ready" ? config.config : undefined;
  // The navigation bar loads the third-party slim script (`NAVBAR_SCRIPT_URL`) on mount and removes it on unmount.
  // This page is the only one that loads it (decision 013).
  useExternalScript(ready?.navbarScriptUrl, ready?.navbarScriptIntegrity);

  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [open]);

  const logo = (
    <>
      <img src="/logo.svg" alt="" width="40" height="40" className="landing-logo-img" />
      <span className="landing-logo-name">{brand}</span>
    </>
  );

  return (
    <header className="landing-header">
      <p className="landing-contact">
        {ready ? (
          <>
            Questions? Write to us at <a href={`mailto:${ready.supportEmail}`}>{ready.supportEmail}</a>
          </>
        ) : config.status === "loading" ? (
          <span className="landing-contact-loading" role="status" aria-label="Loading contact details" />
        ) : (
          "Speed dating for South Asian singles across Australia"
        )}
      </p>
      <nav className="landing-nav" aria-label="Main">
        {ready ? (
          <a href={ready.companySiteUrl} className="landing-logo" aria-label={`${brand} company website`}>
            {logo}
          </a>
        ) : (
          <span className="landing-logo">{logo}</span>
        )}
        <button
          ref={toggleRef}
          type="button"
          className="landing-menu-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="landing-menu-icon" aria-hidden="true" />
          Menu
        </button>
        <ul id={menuId} className="landing-menu" data-open={open}>
          <li>
            <Link to={paths.home}>Upcoming events</Link>
          </li>
          <li>
            <Link to={paths.me}>My tickets</Link>
          </li>
          {ready && (
            <li>
              <a href={ready.companySiteUrl}>Our main site</a>
            </li>
          )}
        </ul>
      </nav>
    </header>
  );
}
