import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses this file: the tables come from our own migration runner.
export default defineConfig({
  schema: 'prisma/schema.prisma',
});
