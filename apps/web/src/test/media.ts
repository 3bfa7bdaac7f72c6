// jsdom has no matchMedia. `matchMediaFor(...queries)` answers a MediaQueryList that matches '' and 'all' (without
// them mantine-datatable hides every column) and the given queries — e.g. the phone query for a 390 px viewport.
export function matchMediaFor(...queries: string[]) {
  const matching = new Set(['', 'all', ...queries]);
  return (query: string) => ({
    matches: matching.has(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}
