// Page-level side effects behind one object so tests can replace them (jsdom cannot navigate).
export const browser = {
  reload: (): void => window.location.reload(),
  assign: (url: string): void => window.location.assign(url),
  alert: (message: string): void => window.alert(message),
};
