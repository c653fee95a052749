import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // Two files, one schema: the rounds tables live apart so neither file grows past reading in one go.
  schema: ["./db/schema.ts", "./db/rounds-schema.ts"],
  out: "./db/migrations",
});
