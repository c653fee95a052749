import { waitForCiJobs } from "../scripts/ci-jobs.ts";

// The unit and API suites' global set-up: under `.ci/run`, better-sqlite3 is compiled while the type
// check runs, and every suite that opens a database waits here until it is (scripts/ci-jobs.ts).
export default () => waitForCiJobs(["install-scripts"]);
