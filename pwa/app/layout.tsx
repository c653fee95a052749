import { Suspense } from "react";
import { Link, Outlet, useLocation } from "react-router-dom";
import { OfflineIndicator } from "./offline-indicator.tsx";
import { PageLoading } from "./page-loading.tsx";
import { paths } from "./paths.ts";

/** The organiser's pages (the admin panel and the door): no attendee's My tickets there. */
const isStaffPage = (pathname: string) => pathname === paths.admin || pathname.startsWith(`${paths.admin}/`);

export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="shell">
      {/* The header and the offline banner stick together, the banner beneath: it never covers the header. */}
      <div className="site-top">
        <header className="site-header">
          <Link to={paths.home} className="brand" aria-label="Saathi Speed Dating home">
            <img src="/logo.svg" alt="" width="36" height="36" className="brand-logo" />
            <span className="brand-name">Saathi Speed Dating</span>
          </Link>
          {isStaffPage(pathname) ? null : (
            <nav className="header-nav" aria-label="Main">
              <Link to={paths.me}>My tickets</Link>
            </nav>
          )}
        </header>
        <OfflineIndicator />
      </div>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <footer className="site-footer">
        <p>© 2024 Saathi Speed Dating. All rights reserved.</p>
        <p className="footer-small">Speed-dating events for South Asian singles across Australia.</p>
        <p className="footer-small">
          <Link to={paths.privacy}>Privacy</Link>
        </p>
      </footer>
    </div>
  );
}
