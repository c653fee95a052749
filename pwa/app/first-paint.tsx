import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { prerender } from "react-dom/static";
import { Route, Routes, StaticRouter } from "react-router-dom";
import { HomePage } from "../routes/home.tsx";
import { Layout } from "./layout.tsx";
import { PageLoading } from "./page-loading.tsx";
import { paths } from "./paths.ts";
import { Pages } from "./router.tsx";
import { UpdatePromptAfterLoad } from "./update-prompt-after-load.tsx";

/**
 * What a page draws before its code has run, written into its HTML by the build
 * (scripts/first-paint.mjs, docs/decisions/064-first-paint-in-the-html.md), so that a phone on a slow
 * network shows it as soon as the HTML and the styles arrive instead of after the code.
 * - `/welcome` and `/me` (HYDRATED_PAGES): the page's whole first screen, which the entry hydrates
 *   (main.tsx). It is the tree main.tsx renders, so React keeps what is drawn; the menu, the links and
 *   the page's own calls run once the code has.
 * - `/`: the home page's first render (the heading, the list loading, the blurb); the home page is
 *   in the entry, so that is what the entry draws first, over it.
 * - Every other page the router loads on demand: the app's frame (header, footer) around the loading
 *   line. That is exactly what the app's first render draws while the page's code arrives, and the
 *   entry draws it again in place, so nothing on the screen changes when it does.
 */
export const FIRST_PAINT_PAGES = [
  paths.home,
  paths.welcome,
  paths.tickets,
  paths.me,
  paths.adminDoor,
  paths.admin,
  paths.otpVerification,
  paths.confirmation,
  paths.success,
] as const;

/**
 * The pages whose whole first screen is drawn, each with its module, whose styles its HTML links:
 * - `/welcome` draws its whole landing page, styled by its module and the chunks it imports (`all`);
 * - `/me` draws the same for every visitor until its code asks who is signed in: the heading, what
 *   the page holds and the loading line, so a phone shows what the page is for before the code
 *   arrives. They need only the page's own styles (`own`); the sign-in's and the saved tickets' come
 *   with its code, before it draws them. A stylesheet in the HTML holds the first paint until it has
 *   come, so none is linked that the drawn screen does not use.
 */
export const HYDRATED_PAGES = [
  { path: paths.welcome, module: "routes/welcome.tsx", styles: "all" },
  { path: paths.me, module: "routes/me.tsx", styles: "own" },
] as const;

export type FirstPaint = { html: string; hydrate: boolean };

export async function firstPaint(pathname: string): Promise<FirstPaint> {
  if (HYDRATED_PAGES.some((page) => page.path === pathname)) {
    // The same tree as main.tsx's, whose shape useId's values depend on: StrictMode, the router with
    // its pages, then the update prompt (nothing until the first load has settled).
    const { prelude } = await prerender(
      <StrictMode>
        <StaticRouter location={pathname}>
          <Pages />
        </StaticRouter>
        <UpdatePromptAfterLoad />
      </StrictMode>,
    );
    return { html: await new Response(prelude).text(), hydrate: true };
  }
  const html = renderToString(
    <StaticRouter location={pathname}>
      <Routes>
        <Route element={<Layout />}>
          <Route path={paths.home} element={<HomePage />} />
          <Route path="*" element={<PageLoading />} />
        </Route>
      </Routes>
    </StaticRouter>,
  );
  return { html, hydrate: false };
}
