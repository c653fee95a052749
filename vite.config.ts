import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { walletBadgesAlias } from "./scripts/wallet-badges-alias.ts";

// react-router's package exports its development build to every bundler (warnings and their messages
// included); a production build takes the production one (0.4 KB gzipped less of the home page's
// JavaScript budget, docs/decisions/007-scale.md). Development keeps the warnings.
const reactRouterProduction = {
  "react-router/dom": "react-router/dist/production/dom-export.mjs",
  "react-router": "react-router/dist/production/index.mjs",
};
// Its production build still ends `Link`, `NavLink` and `Form` with `X.displayName = "X"` and makes
// them with an unannotated `React.forwardRef(...)`, so a bundler must keep all three (and `Form`'s
// submission code, `useSubmit`, `NavLink`'s view-transition hook) although the home page uses only
// `Link`. This build drops those display names (React DevTools' labels; a production build has no
// use for them) and marks the `forwardRef` calls pure, so what no page uses is left out: 1.8 KB
// gzipped less of the home page's first load (docs/decisions/007-scale.md).
const reactRouterLean: Plugin = {
  name: "react-router-lean",
  enforce: "pre",
  transform(code, id) {
    if (!/\/react-router\/dist\/production\/[^/]+\.mjs$/.test(id)) return null;
    const lean = code
      .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, "")
      .replace(/= (React\d*)\.forwardRef\(/g, "= /* @__PURE__ */ $1.forwardRef(");
    // Lines keep their numbers, so the file's own source map stays close enough.
    return { code: lean, map: null };
  },
};
const inNodeModules = (path: string) => fileURLToPath(new URL(`./node_modules/${path}`, import.meta.url));

export default defineConfig(({ command }) => ({
  root: "pwa",
  publicDir: "../public",
  resolve: {
    alias: [
      walletBadgesAlias,
      ...(command === "build"
        ? Object.entries(reactRouterProduction).map(([find, file]) => ({
            find: new RegExp(`^${find}$`),
            replacement: inNodeModules(file),
          }))
        : []),
    ],
  },
  plugins: [
    command === "build" && reactRouterLean,
    react(),
    VitePWA({
      // Our own service worker (pwa/sw.ts): precache + runtime caching + Background Sync for taps.
      strategies: "injectManifest",
      srcDir: ".",
      filename: "sw.ts",
      // A new deployment waits for the user's "Reload" (pwa/app/update-prompt.tsx).
      registerType: "prompt",
      injectRegister: false,
      injectManifest: {
        // The shell and its code; the landing video and the seed images are fetched on demand instead.
        globPatterns: ["**/*.{js,css,html,svg,png,ico,webmanifest}"],
        globIgnores: ["**/landing/**"],
      },
      includeAssets: ["favicon.svg", "logo.svg", "apple-touch-icon.png", "robots.txt"],
      manifest: {
        id: "/",
        name: "Saathi Speed Dating",
        short_name: "Saathi",
        description:
          "Speed-dating events for South Asian singles across Australia: book, show your ticket, meet your match.",
        lang: "en-AU",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        theme_color: "#c2366b",
        background_color: "#faf7fb",
        categories: ["lifestyle", "social"],
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    // Every browser that runs this build's es2022 but lacks modulepreload (Safari before 17) still
    // loads the page, just without the early fetch; the polyfill would cost every phone its bytes in
    // the home page's JavaScript budget (docs/decisions/007-scale.md).
    modulePreload: false,
    // Which styles each page's chunk loads, for the pages whose first screen is drawn into their
    // HTML (scripts/first-paint.mjs). Not served (api/lib/static-files.ts), not precached.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:3001" },
  },
}));
