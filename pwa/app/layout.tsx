import { Suspense } from "react";
import { Link, Outlet } from "react-router-dom";
import { PageLoading } from "./page-loading.tsx";
import { paths } from "./paths.ts";

export function Layout() {
  return (
    <div className="shell">
      <header className="site-header">
        <Link to={paths.home} className="brand" aria-label="Saathi Speed Dating home">
          <img src="/logo.svg" alt="" width="36" height="36" className="brand-logo" />
          <span className="brand-name">Saathi Speed Dating</span>
        </Link>
        <nav className="header-nav" aria-label="Main">
          <Link to={paths.tickets}>My tickets</Link>
        </nav>
      </header>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <footer className="site-footer">
        <p>© 2024 Saathi Speed Dating. All rights reserved.</p>
        <p className="footer-small">Speed-dating events for South Asian singles across Australia.</p>
      </footer>
    </div>
  );
}
