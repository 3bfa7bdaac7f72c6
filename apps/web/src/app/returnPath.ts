// Where sign-in returns to: the page a signed-out visitor asked for (a deep link, or the page an expired session
// was on), carried in the login page's URL as `?next=<path>`. Only a path of this console is followed: anything
// that could leave the site (`//evil.com`, `https://evil`, `/\evil`, `javascript:`) is ignored, so the login page
// cannot be used as an open redirect.

/** The login page's query parameter naming the page to return to. */
export const NEXT_PARAM = 'next';
/** Set by the session-expired dialog: the login page says why the user is there. */
export const EXPIRED_PARAM = 'expired';

const PLACEHOLDER_ORIGIN = 'https://console.invalid';

/** The same-origin path + query + hash of `raw`, or null when it is not a path of this console (or is the login). */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  // A relative path only: one leading slash, no backslash or control characters (browsers read `/\host` and
  // `/\t/host` as another host).
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  // Back to the login page would loop; '/register' is the same screen.
  if (url.pathname === '/login' || url.pathname === '/register') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login URL that returns to `path` after sign-in (no `next` for the console's root). */
export function loginUrl(path: string | null, expired = false): string {
  const params = new URLSearchParams();
  if (expired) params.set(EXPIRED_PARAM, '1');
  const next = safeReturnPath(path);
  if (next && next !== '/') params.set(NEXT_PARAM, next);
  const qs = params.toString();
  return `/login${qs ? `?${qs}` : ''}`;
}
