import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Vendor code is split into a few long-lived chunks so a route change or a release of our own
// code does not invalidate the whole bundle; the routes themselves are lazy-loaded.
const VENDOR_GROUPS: { name: string; test: RegExp }[] = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'vendor-mantine', test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|react-number-format|react-textarea-autosize|clsx|tslib)[\\/]/ },
  { name: 'vendor-data', test: /node_modules[\\/](@tanstack|react-router|cookie|set-cookie-parser)[\\/]/ },
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/ },
  // Phone metadata is large and only needed where a number is validated (login, forms).
  { name: 'vendor-phone', test: /node_modules[\\/]libphonenumber-js[\\/]/ },
];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS.map((g) => ({ name: g.name, test: g.test, priority: 10 })),
        },
      },
    },
  },
});
