// Field errors of the tutorial forms from the shared zod schemas: the first message of each field (nested paths
// joined with dots, as the API names them), and scrolling the first invalid field into view (part 3 §5).
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

export function zodErrors(error: z.ZodError): FieldErrors {
  const found: FieldErrors = {};
  for (const issue of error.issues) found[issue.path.map(String).join('.') || 'non_field_errors'] ??= issue.message;
  return found;
}

export function firstErrorInto(errors: FieldErrors): void {
  const first = Object.keys(errors)[0];
  if (!first) return;
  const node = document.querySelector(`[data-field="${first}"]`);
  if (node && 'scrollIntoView' in node) node.scrollIntoView({ block: 'center' });
}
