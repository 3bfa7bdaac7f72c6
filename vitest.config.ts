import { defineConfig } from 'vitest/config';

// One Vitest run covers the three workspaces; each is a project with its own environment.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/api', 'apps/web'],
  },
});
