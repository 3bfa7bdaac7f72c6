// confirm() and openAlert() open their dialog through Mantine's modals manager, whose provider loads after the first
// screen (app/DeferredHosts.tsx): they wait for it here, so a dialog asked for before it is mounted still opens.
let resolveMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  resolveMounted = resolve;
});

export const markModalsMounted = (): void => resolveMounted();

/** Resolves once the modals manager is on the page. */
export const modalsMounted = (): Promise<void> => mounted;
