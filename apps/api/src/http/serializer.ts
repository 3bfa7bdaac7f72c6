// The response serializer of lists whose rows the database builds as JSON in the API's names (the scan list,
// scan-list.queries.ts scanRowJson). Every other route keeps fastify-type-provider-zod's serializer, which encodes each
// answer with its zod schema (dropping fields the schema lacks) before JSON.stringify. For a page of scan rows that
// encoding cost a fifth of the list's throughput at a million scans (npm run bench), so in production these routes
// write what they built. Outside production (config.checkResponses: tests, development) the schema still checks every
// answer, and an answer carrying a field its schema lacks fails instead of being trimmed: what production would send
// is exactly what the tests saw.
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** The path of the first field of `sent` that `encoded` (its schema's encoding) lacks, or null. */
export function extraField(sent: unknown, encoded: unknown, path = ''): string | null {
  if (Array.isArray(sent)) {
    if (!Array.isArray(encoded)) return null;
    for (let i = 0; i < sent.length; i++) {
      const found = extraField(sent[i], encoded[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof sent !== 'object' || sent === null || typeof encoded !== 'object' || encoded === null) return null;
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    const at = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(encoded, key)) return at;
    const found = extraField(value, (encoded as Record<string, unknown>)[key], at);
    if (found !== null) return found;
  }
  return null;
}

/** The serializer compiler of database-built rows: checked against the schema when `check`, else JSON.stringify. */
export function builtRowsSerializer<S = ZodType>(check: boolean): FastifySerializerCompiler<S> {
  return (route) => {
    if (!check) return (data) => JSON.stringify(data);
    const encode = serializerCompiler(route as unknown as Parameters<typeof serializerCompiler>[0]);
    return (data) => {
      const text = encode(data);
      const extra = extraField(data, JSON.parse(text));
      if (extra !== null) {
        throw new Error(`${route.method} ${route.url} answered a field its response schema lacks: ${extra}`);
      }
      return text;
    };
  };
}
