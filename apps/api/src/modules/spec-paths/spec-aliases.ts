// Paths the specification names where the product answers at a better-named path (issue 23.21). Each alias is the
// product route itself registered a second time at the spec's path: the same guard, schema, scope, handler and
// answers, so the two can never drift apart. The console keeps calling the product paths.
import type { FastifyInstance, RouteOptions } from 'fastify';

type Alias = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The product route, as its module registers it under /api/v1. */
  product: string;
  /** The path the specification names. */
  spec: string;
  /** Where the specification names it. */
  cite: string;
};

export const SPEC_ALIASES: readonly Alias[] = [
  { method: 'POST', product: '/scan/ids/', spec: '/scan/from/ids/', cite: 'part 1 §7, part 2 §7 scan-from-ids' },
  {
    method: 'GET',
    product: '/scan/sensor-serial-numbers/',
    spec: '/scan/sensor-serial-number/',
    cite: 'part 1 §7, part 2 §7 sensor serial number list',
  },
  { method: 'GET', product: '/scan/report-log/', spec: '/report_log/', cite: 'part 1 §7, part 3 §7 Report log' },
  {
    method: 'POST',
    product: '/cervaical/document-user/',
    spec: '/cervaical/document_user/',
    cite: 'part 1 §7, part 3 §7 review save',
  },
  {
    method: 'PATCH',
    product: '/cervaical/document-user/:id/',
    spec: '/cervaical/document_user/:id/',
    cite: 'part 1 §7, part 3 §7 review save (PATCH by id)',
  },
  {
    method: 'POST',
    product: '/organization/device/',
    spec: '/device/link/organization/',
    cite: 'part 1 §7, part 2 §7 organization device link',
  },
  {
    method: 'POST',
    product: '/patient/transfer/:id/',
    spec: '/patient/:id/transfer/',
    cite: 'part 1 §7, part 2 §7 patient transfer',
  },
];

const API_PREFIX = '/api/v1';

/**
 * Call on the /api/v1 scope before the modules register: when a product route of SPEC_ALIASES is added, the same
 * route is added at the spec's path (the OpenAPI document lists both; the alias's summary names the product path).
 */
export function registerSpecAliases(api: FastifyInstance): void {
  const byProduct = new Map(SPEC_ALIASES.map((a) => [`${a.method} ${API_PREFIX}${a.product}`, a]));
  api.addHook('onRoute', function addAlias(route) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const alias = byProduct.get(`${method} ${route.url}`);
      if (!alias) continue;
      const {
        url: _url,
        path: _path,
        prefix,
        routePath,
        method: _method,
        ...options
      } = route as RouteOptions & { path?: string; prefix?: string; routePath?: string };
      // The scope the product route is registered in adds its own prefix again: give the rest of the spec path.
      const ownPrefix = prefix ?? API_PREFIX;
      const specUrl = `${API_PREFIX}${alias.spec}`;
      if (!specUrl.startsWith(ownPrefix) || routePath === undefined) continue;
      const schema = options.schema as { summary?: string; description?: string } | undefined;
      this.route({
        ...options,
        method,
        url: specUrl.slice(ownPrefix.length),
        ...(schema
          ? {
              schema: {
                ...schema,
                summary: `${schema.summary ?? ''} — the specification's path (${alias.cite}); the same as ${method} ${API_PREFIX}${alias.product}`.trim(),
              },
            }
          : {}),
      });
    }
  });
}
