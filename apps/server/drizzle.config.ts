// drizzle-kit: generates the SQL migrations in ./drizzle from the schema (npm run db:generate).
// Columns are named explicitly in snake_case in the schema; `casing` is set to match for any column
// that is not (the runtime drizzle() call passes the same option).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  casing: 'snake_case',
  strict: true,
  verbose: true,
});
