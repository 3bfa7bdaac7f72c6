// The page-wide overlays (app/hosts.tsx: the modals manager and the notifications container) load when a screen
// first needs them, not with the sign-in form (issue 24): the console's shell and the public pages that open dialogs
// ask for them as they mount; confirm(), openAlert() and the API client's notices ask for them and wait.
let want: () => void = () => undefined;
const wanted = new Promise<void>((resolve) => {
  want = resolve;
});

let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Asks for the overlays to load (idempotent). */
export const wantAppHosts = (): void => want();

/** Settles when a screen first asks for the overlays. */
export const appHostsWanted = (): Promise<void> => wanted;

export const markModalsMounted = (): void => markMounted();

/** Asks for the overlays and resolves once the modals manager is on the page. */
export function modalsMounted(): Promise<void> {
  want();
  return mounted;
}
