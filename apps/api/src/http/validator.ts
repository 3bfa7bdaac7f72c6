// The validator of every route schema: fastify-type-provider-zod's zod check, after refusing text that PostgreSQL
// cannot store anywhere in a body or query (values and keys): U+0000, and a lone UTF-16 surrogate (JSONB refuses
// it). Such a value used to pass a schema and fail in the database with a 500; DRF answers NUL per field with
// 'Null characters are not allowed.' The schemas' own text rule (`textField` in packages/shared) refuses the same
// and more per field; this net covers every field, including the ones a schema forgets. Path parameters are left to
// the routes: an id that names nothing is a 404.
// A query parameter sent twice arrives as an array: where the schema wants one value, the error names the
// parameter with 'Only one value is allowed.' instead of the type error of the value it could not read.
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { REPEATED_PARAMETER_MESSAGE } from '@sc/shared/list';
import { TEXT_MESSAGES, isWellFormedText } from '@sc/shared/validation';
import { badRequest, type FieldErrors } from './errors.ts';

export const NULL_CHARACTER_MESSAGE = 'Null characters are not allowed.';

/** The message for a string PostgreSQL cannot store, or null. */
function storageProblem(text: string): string | null {
  if (text.includes('\u0000')) return NULL_CHARACTER_MESSAGE;
  if (!isWellFormedText(text)) return TEXT_MESSAGES.invalidChars;
  return null;
}

/**
 * The dotted path ('' for the value itself) of the first string or key PostgreSQL cannot store, with its message,
 * or null. Walks with its own stack, not recursion, and builds a path only when it finds one: a body may nest a
 * few hundred thousand levels deep within the size limit.
 */
export function findUnstorableText(value: unknown): { path: string; message: string } | null {
  type Node = { value: unknown; key: string | null; parent: Node | null };
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let n: Node | null = node; n?.key != null; n = n.parent) keys.push(n.key);
    return keys.reverse().join('.');
  };
  const stack: Node[] = [{ value, key: null, parent: null }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.value === 'string') {
      const message = storageProblem(node.value);
      if (message) return { path: pathOf(node), message };
    } else if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, child] of Object.entries(node.value)) {
        const next: Node = { value: child, key, parent: node };
        const message = storageProblem(key);
        if (message) return { path: pathOf(next), message };
        stack.push(next);
      }
    }
  }
  return null;
}

/**
 * For a querystring that failed its schema: 'Only one value is allowed.' on each parameter that was sent more than
 * once and that the schema refuses (a parameter that takes a list, such as `user_type`, passes and is not named).
 * Null when no repeated parameter is at fault, so the schema's own errors answer.
 */
export function repeatedParameterErrors(schema: unknown, query: unknown): FieldErrors | null {
  if (typeof query !== 'object' || query === null) return null;
  const repeated = Object.entries(query)
    .filter(([, v]) => Array.isArray(v))
    .map(([k]) => k);
  if (!repeated.length || !isZodSchema(schema)) return null;
  const result = schema.safeParse(query);
  if (result.success) return null;
  const failsAt = (issues: readonly { path: readonly PropertyKey[] }[], key: string) => issues.some((i) => i.path[0] === key);
  // A list parameter takes an empty list; a one-value parameter refuses any list. So a list parameter with a bad
  // item (`user_type=ADMIN&user_type=ROOT`) keeps the schema's message about the item.
  const takesOneValue = (key: string) => {
    const probe = schema.safeParse({ ...query, [key]: [] });
    return !probe.success && failsAt(probe.error.issues, key);
  };
  const refused = repeated.filter((key) => failsAt(result.error.issues, key) && takesOneValue(key));
  if (!refused.length) return null;
  return Object.fromEntries(refused.map((key) => [key, [REPEATED_PARAMETER_MESSAGE]]));
}

const isZodSchema = (value: unknown): value is ZodType =>
  typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function';

type ZodSchemaCompiler = typeof zodValidatorCompiler;

export const validatorCompiler: ZodSchemaCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart === 'params') return validate;
  const check: ReturnType<FastifySchemaCompiler<unknown>> = (data) => {
    const found = findUnstorableText(data);
    if (found !== null) return { error: badRequest({ [found.path || 'non_field_errors']: [found.message] }) };
    const result = validate(data);
    const failed = typeof result === 'object' && 'error' in result && result.error !== undefined;
    if (route.httpPart === 'querystring' && failed) {
      const repeated = repeatedParameterErrors(route.schema, data);
      if (repeated) return { error: badRequest(repeated) };
    }
    return result;
  };
  return check;
};
