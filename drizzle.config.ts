import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // Five files, one schema: the rounds, access, marketing and team tables live apart so no file grows past reading in one go.
  schema: [
    "./db/schema.ts",
    "./db/rounds-schema.ts",
    "./db/access-schema.ts",
    "./db/marketing-schema.ts",
    "./db/team-schema.ts",
  ],
  out: "./db/migrations",
});
