import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// react-router's package exports its development build to every bundler (warnings and their messages
// included); a production build takes the production one (0.4 KB gzipped less of the home page's
// JavaScript budget, docs/decisions/007-scale.md). Development keeps the warnings.
const reactRouterProduction = {
  "react-router/dom": "react-router/dist/production/dom-export.mjs",
  "react-router": "react-router/dist/production/index.mjs",
};
const inNodeModules = (path: string) => fileURLToPath(new URL(`./node_modules/${path}`, import.meta.url));

export default defineConfig(({ command }) => ({
  root: "pwa",
  publicDir: "../public",
  resolve: {
    alias:
      command === "build"
        ? Object.entries(reactRouterProduction).map(([find, file]) => ({
            find: new RegExp(`^${find}$`),
            replacement: inNodeModules(file),
          }))
        : [],
  },
  plugins: [
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
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:3001" },
  },
}));
