// The order arithmetic of the tutorial lists' reordering (drag and drop, Move up / Move down): pure functions on
// ids, so the table and the one-call reorder agree on what a move means.

/** `ids` with `moved` placed where `target` is. */
export function moveId(ids: readonly number[], moved: number, target: number): number[] {
  const from = ids.indexOf(moved);
  const to = ids.indexOf(target);
  if (from < 0 || to < 0 || from === to) return [...ids];
  const out = ids.filter((id) => id !== moved);
  out.splice(to, 0, moved);
  return out;
}

/** `ids` with `id` moved one place up (-1) or down (+1). */
export function stepId(ids: readonly number[], id: number, step: -1 | 1): number[] {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return [...ids];
  const out = [...ids];
  [out[from], out[to]] = [out[to] as number, out[from] as number];
  return out;
}

/** A new order: the page's rows moved in place (`offset`: the page's first row in the whole list), or one row one step. */
export type TReorderChange = { pageIds: number[]; offset: number } | { id: number; step: -1 | 1 };

/** The whole list in its new order; rows not on the page keep theirs. A step may cross a page boundary. */
export function reorderedIds(ids: readonly number[], change: TReorderChange): number[] {
  if ('step' in change) return stepId(ids, change.id, change.step);
  const rest = ids.filter((id) => !change.pageIds.includes(id));
  return [...rest.slice(0, change.offset), ...change.pageIds, ...rest.slice(change.offset)];
}
