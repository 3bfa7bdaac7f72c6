// Chunks the web build names itself (vite.config.ts), and the modules they are built around: read by the build and by
// the bundle budget and web bench (e2e/bundle-size.ts), which find a route's files in the build's manifest.

/** The sign-in screens' page (/login, /register), as the manifest keys modules: relative to apps/web. */
export const SIGN_IN_PAGE = 'src/features/auth/pages/LoginPage.tsx';

/** The chunk that holds the sign-in page and everything it uses (it has no chunk, nor manifest key, of its own). */
export const SIGN_IN_CHUNK = 'sign-in';
