// Walks the OpenAPI document (issue 23.26): every operation — routes added later included — has one tag of the
// known areas, its 4xx answers, security exactly where an anonymous call is refused, and the upload routes a
// multipart form the docs page can send.
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app.ts';
import { API_TAG_NAMES } from './openapi.ts';

type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; $ref?: string; allOf?: Schema[] };
type Response = { $ref?: string; description?: string; content?: Record<string, { schema?: Schema }> };
type Operation = {
  tags?: string[];
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
};
type OpenApi = {
  info: { description?: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string; description: string }>;
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
  };
};

const t = await setupTestApp();
const doc = t.app.swagger() as unknown as OpenApi;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op, name: `${method} ${path}` })),
);

describe('the OpenAPI document', () => {
  it('has the operations of the app', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('describes the Token scheme and the two sign-in steps', () => {
    const token = doc.components.securitySchemes.token;
    expect(token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(token?.description).toContain('Token <token>');
    const auth = doc.tags.find((tag) => tag.name === 'auth')?.description ?? '';
    // Step 1 (id_token by password, or by code), then step 2 (the session token), in that order.
    const steps = ['POST auth/password/', 'POST auth/otp/', 'POST auth/otp/verify/', 'POST user/login/'];
    const at = steps.map((step) => auth.indexOf(step));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(auth).toContain('id_token');
    expect(auth).toContain('Authorization: Token <token>');
    expect(doc.paths['/api/v1/user/login/']?.post?.tags).toEqual(['auth']);
  });

  it('has the shared shapes and the error answers as components', () => {
    expect(doc.components.schemas.FieldErrors).toBeDefined();
    expect(doc.components.schemas.Detail).toBeDefined();
    expect(doc.components.schemas.Page?.properties).toHaveProperty('results');
    const responses = doc.components.responses;
    expect(responses.BadRequest?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/FieldErrors');
    for (const name of ['Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests']) {
      expect(responses[name]?.content?.['application/json']?.schema?.$ref, name).toBe('#/components/schemas/Detail');
    }
  });

  it('lists each area once as a tag, and gives every operation exactly one of them', () => {
    expect(doc.tags.map((tag) => tag.name)).toEqual(API_TAG_NAMES);
    const wrong = operations.filter(({ op }) => op.tags?.length !== 1 || !API_TAG_NAMES.includes(op.tags[0] ?? ''));
    expect(wrong.map((o) => `${o.name} ${JSON.stringify(o.op.tags)}`)).toEqual([]);
    // Every area has operations.
    const used = new Set(operations.map(({ op }) => op.tags?.[0]));
    expect(API_TAG_NAMES.filter((name) => !used.has(name))).toEqual([]);
  });

  it('gives every operation its 4xx answers: 400 for input, 401/403 when signed in, 404 for a path id', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      const codes = Object.keys(op.responses);
      const need: string[] = ['4XX'];
      const hasQuery = op.parameters?.some((p) => p.in === 'query') ?? false;
      if (op.requestBody || hasQuery) need.push('400');
      if (op.security?.length) need.push('401', '403');
      if (op.parameters?.some((p) => p.in === 'path')) need.push('404');
      for (const code of need) if (!codes.includes(code)) missing.push(`${name} ${code}`);
      for (const code of codes.filter((c) => c.startsWith('4'))) {
        if (!op.responses[code]?.$ref?.startsWith('#/components/responses/')) missing.push(`${name} ${code} not shared`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents 429 where calls are rate limited', () => {
    for (const [path, method] of [
      ['/api/v1/auth/password/', 'post'],
      ['/api/v1/auth/otp/', 'post'],
      ['/api/v1/user/login/', 'post'],
      ['/api/v1/appointment/{token}/booking/', 'post'],
      ['/api/v1/organization/user/{id}/reset/password/', 'post'],
    ] as const) {
      expect(Object.keys(doc.paths[path]?.[method]?.responses ?? {}), `${method} ${path}`).toContain('429');
    }
  });

  it('describes list answers as the shared Page', () => {
    const list = doc.paths['/api/v1/firmware/']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(list?.allOf?.[0]?.$ref).toBe('#/components/schemas/Page');
  });

  it('describes the upload routes as multipart forms with a file field', () => {
    const multipart = operations.filter(({ op }) => op.requestBody?.content['multipart/form-data']);
    expect(multipart.map((o) => o.name).sort()).toEqual(
      expect.arrayContaining(['post /api/v1/file/upload/', 'post /api/v1/firmware/']),
    );
    for (const { name, op } of multipart) {
      const form = op.requestBody?.content['multipart/form-data']?.schema;
      expect(form?.properties?.file, name).toMatchObject({ type: 'string', format: 'binary' });
    }
    const upload = doc.paths['/api/v1/file/upload/']?.post?.requestBody?.content['multipart/form-data']?.schema;
    expect(upload?.properties?.folder).toMatchObject({ type: 'string' });
    expect((upload?.properties?.folder as { enum?: string[] }).enum).toContain('firmware');
  });

  it('marks security exactly on the operations an anonymous caller is refused (401)', async () => {
    const wrong: string[] = [];
    for (const { method, path, op, name } of operations) {
      // A path parameter of any value: the guards answer before the id is looked at.
      const url = path.replace(/\{[^}]+\}/g, '1');
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const res = await t.app.inject({ method: method as 'GET', url, ...(body ? { payload: body } : {}) });
      const secured = (op.security?.length ?? 0) > 0;
      if (secured !== (res.statusCode === 401)) wrong.push(`${name}: security ${secured}, anonymous ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});
