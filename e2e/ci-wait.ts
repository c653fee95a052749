import { waitForCiJobs } from "../scripts/ci-jobs.ts";

// The browser suites' global set-up: under `.ci/run`, Chromium is installed and better-sqlite3 compiled
// while earlier phases run, and the suites wait here until both are (scripts/ci-jobs.ts).
export default () => waitForCiJobs(["install-scripts", "chromium"]);
