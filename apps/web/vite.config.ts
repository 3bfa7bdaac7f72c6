import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { SIGN_IN_CHUNK, SIGN_IN_PAGE } from './build-chunks.ts';

// React, the router and the query cache are in nearly every route, change rarely and are cached apart from our code.
// Mantine, charts, dates, tables and maps are NOT forced into one vendor chunk: the bundler then splits each by the
// routes that use it, so the sign-in screens load only the Mantine components they render (issue 24: the whole
// Mantine chunk, 910 kB, once loaded before the sign-in form).
const VENDOR_GROUPS: { name: string; test: RegExp }[] = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'vendor-data', test: /node_modules[\\/](@tanstack|react-router|cookie|set-cookie-parser)[\\/]/ },
];

/**
 * Where `/api` goes in `npm run dev:web` and `vite preview`: the API server of `npm run dev:api` / `npm start`,
 * which listens on PORT (default 8080) at HOST (default 127.0.0.1) — the same variables, so one `PORT=8081` in the
 * shell serves both. API_PORT names the API's port when PORT means something else in that shell. An address of
 * every interface (0.0.0.0, ::) is reached on loopback; 127.0.0.1 rather than localhost, which may resolve to ::1
 * where the API does not listen.
 */
export function apiProxyTarget(env: Record<string, string | undefined> = process.env): string {
  const port = env.API_PORT || env.PORT || '8080';
  const host =
    env.HOST && !['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(env.HOST) ? env.HOST : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const apiProxy = { '/api': { target: apiProxyTarget(), changeOrigin: true } };

export default defineConfig({
  plugins: [react()],
  server: {
    // The console's own port: fixed, so that PORT (the API's) does not move it.
    port: 5173,
    proxy: apiProxy,
  },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: each entry's static and dynamic imports, read by the bundle budget and the web bench.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...VENDOR_GROUPS.map((g) => ({ name: g.name, test: g.test, priority: 10 })),
            // The first screen in one file: the login page and what it uses (a group takes its modules' dependencies,
            // after tree-shaking: the Mantine parts it renders, the form, phone and schema code, the app's own core).
            // Left to itself the bundler cut these into some forty small files, one per set of routes sharing a
            // module: forty requests, each with its headers, at 150 ms a round trip on a clinic's link (issue 24). The
            // entry imports this chunk, so index.html preloads it with the entry. The screens after sign-in need most
            // of it too (Mantine's core, inputs and popovers, zod, the phone rules).
            {
              name: SIGN_IN_CHUNK,
              test: (id: string) => id.replaceAll('\\', '/').endsWith(SIGN_IN_PAGE),
              priority: 5,
            },
          ],
        },
      },
    },
  },
});
