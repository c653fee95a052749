import { spawn } from "node:child_process";

// `npm run dev`: the API on :3001 (restarted on change by tsx watch) and Vite on :5173, which
// proxies /api to it. Open http://localhost:5173.
const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "api/server.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: "3001", PUBLIC_BASE_URL: "http://localhost:5173" },
  }),
  spawn(process.execPath, ["node_modules/vite/bin/vite.js"], { stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
