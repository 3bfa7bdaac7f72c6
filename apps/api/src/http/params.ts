// Path parameters. An `{id}` that is not a positive 32-bit integer names nothing: callers answer 404, exactly
// as for an id that does not exist.
import { isId } from '@sc/shared/list';

export function parsePathId(raw: string): number | undefined {
  if (!/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return isId(id) ? id : undefined;
}
