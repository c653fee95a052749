import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // Three files, one schema: the rounds and access tables live apart so no file grows past reading in one go.
  schema: ["./db/schema.ts", "./db/rounds-schema.ts", "./db/access-schema.ts", "./db/marketing-schema.ts"],
  out: "./db/migrations",
});
