// Worker threads don't inherit `--import tsx`; register it here, then load the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./hold-worker.ts");
