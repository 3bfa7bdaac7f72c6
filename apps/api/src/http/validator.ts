// The validator of every route schema: fastify-type-provider-zod's zod check, after refusing text that holds a NUL
// character anywhere in a body or query (values and keys). PostgreSQL cannot store or compare U+0000 in text, so
// such a value used to pass the schema and fail in the database with a 500; DRF answers it per field with
// 'Null characters are not allowed.' Path parameters are left to the routes: an id that names nothing is a 404.
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { badRequest } from './errors.ts';

export const NULL_CHARACTER_MESSAGE = 'Null characters are not allowed.';

/**
 * The dotted path of the first string (or key) holding U+0000 ('' for the value itself), or null. Walks with its
 * own stack, not recursion, and builds a path only when it finds one: a body may nest a few hundred thousand
 * levels deep within the size limit.
 */
export function findNullCharacter(value: unknown): string | null {
  type Node = { value: unknown; key: string | null; parent: Node | null };
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let n: Node | null = node; n?.key != null; n = n.parent) keys.push(n.key);
    return keys.reverse().join('.');
  };
  const stack: Node[] = [{ value, key: null, parent: null }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.value === 'string') {
      if (node.value.includes('\u0000')) return pathOf(node);
    } else if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, child] of Object.entries(node.value)) {
        const next: Node = { value: child, key, parent: node };
        if (key.includes('\u0000')) return pathOf(next);
        stack.push(next);
      }
    }
  }
  return null;
}

type ZodSchemaCompiler = typeof zodValidatorCompiler;

export const validatorCompiler: ZodSchemaCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart === 'params') return validate;
  const check: ReturnType<FastifySchemaCompiler<unknown>> = (data) => {
    const path = findNullCharacter(data);
    if (path !== null)
      return { error: badRequest({ [path || 'non_field_errors']: [NULL_CHARACTER_MESSAGE] }) };
    return validate(data);
  };
  return check;
};
