// file/upload/ and file/?path= (architecture §7b "paths the spec leaves out"). The route reads the multipart form and
// streams the answer; the rules are in files.service.ts.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FOLDER_RULES, UPLOAD_MAX_BYTES, ZFileQuery, ZFileUploadResult, ZUploadFolder } from '@sc/shared/files';
import { requireActor } from '../../http/authenticate.ts';
import { cleanFileName, multipartParts, readMultipart } from '../../http/multipart.ts';
import { FILE_FIELD } from '../../http/openapi.ts';
import { PRIVATE_FILE_CACHE_CONTROL } from '../../http/response-headers.ts';
import { auditRead, fileReadKind } from '../../http/read-audit.ts';
import { readFile, uploadFile, type UploadForm } from './files.service.ts';

const tags = ['files'];
const security = [{ token: [] }];

const FORM_FIELDS = new Set(['folder', 'organization']);

/** The form as the OpenAPI page shows it ("Try it out" sends it as multipart/form-data). */
const UPLOAD_FORM = {
  properties: {
    folder: {
      type: 'string',
      enum: Object.keys(FOLDER_RULES),
      description: 'Where the file goes; each folder has its own types, size limit and uploaders.',
    },
    file: FILE_FIELD('The file (one per request).'),
    // A form field is text: the id as digits. Empty, so "Try it out" does not send a placeholder 0.
    organization: {
      type: 'string',
      pattern: '^[0-9]+$',
      example: '',
      description: 'The id of the organization the file belongs to, where the folder needs one.',
    },
  },
  required: ['folder', 'file'],
};

export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Reads the form: the `file` part into memory (at most the folder's limit, or the largest limit when `folder`
 * comes after the file; the rest is read and dropped) and the `folder` and `organization` fields.
 */
async function readUploadForm(request: FastifyRequest): Promise<UploadForm> {
  const form: UploadForm = { folder: undefined, organization: undefined, file: null };
  if (!request.isMultipart()) return form;
  await readMultipart(() => readParts(request, form));
  return form;
}

async function readParts(request: FastifyRequest, form: UploadForm): Promise<void> {
  // A file past the limit is cut and reported as too large by the service, with the folder's own message.
  for await (const part of multipartParts(request, UPLOAD_MAX_BYTES)) {
    if (part.type === 'field') {
      if (FORM_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
        form[part.fieldname as 'folder' | 'organization'] = part.value;
      }
      continue;
    }
    if (part.fieldname !== 'file' || form.file) {
      part.file.resume();
      continue;
    }
    const known = ZUploadFolder.safeParse(form.folder);
    const limit = known.success ? FOLDER_RULES[known.data].maxBytes : UPLOAD_MAX_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    }
    const tooLarge = size > limit || part.file.truncated;
    form.file = { name: cleanFileName(part.filename), data: tooLarge ? null : Buffer.concat(chunks), size, tooLarge };
  }
}

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = () => ({ ...app.ctx, storage: app.ctx.services.storage });

  app.post(
    '/file/upload/',
    {
      schema: {
        tags,
        security,
        summary: 'Upload a file (multipart: file, folder, optional organization) → {url, path}',
        consumes: ['multipart/form-data'],
        response: { 200: ZFileUploadResult },
      },
      config: { apiDoc: { form: UPLOAD_FORM } },
    },
    async (request) => {
      // Signed in before a byte of the body is read.
      const actor = requireActor(request);
      const form = await readUploadForm(request);
      return uploadFile(ctx(), actor, form);
    },
  );

  app.get(
    '/file/',
    {
      // 401 before the query is validated.
      preValidation: async (request) => {
        requireActor(request);
      },
      schema: {
        tags,
        security,
        summary: 'Download a stored file by its path',
        querystring: ZFileQuery,
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const file = await readFile(ctx(), actor, request.query.path);
      // A report or a consent form served is a read of personal data (issue 27); logos, firmware and photos are not.
      const kind = fileReadKind(request.query.path);
      if (kind) await auditRead(app.ctx, request, { kind, id: request.query.path, organizationId: file.organizationId });
      // Uploaded content never runs on the API's origin: no sniffing into another type, a sandbox without
      // scripts (the pattern of GitHub's raw files), and anything but an image is a download.
      void reply
        .type(file.contentType)
        .header('cache-control', PRIVATE_FILE_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
        .header('content-disposition', `${file.disposition}; filename="${file.name}"`);
      if (file.size !== null) void reply.header('content-length', String(file.size));
      return reply.send(file.body);
    },
  );
};
