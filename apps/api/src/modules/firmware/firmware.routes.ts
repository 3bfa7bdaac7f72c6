// firmware/ (part 3 §7; architecture §7b): list, read, create from an uploaded .ibe file (multipart), download, delete
// (ADMIN), and the devices' read of the latest version (`firmware/latest/`, answering 304 to a device that already
// has it through an ETag). Rules live in the service.
import etag from '@fastify/etag';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FIRMWARE_EDIT_ROLES,
  FIRMWARE_MAX_BYTES,
  FIRMWARE_ROLES,
  ZFirmwarePatch,
  ZFirmwarePathInput,
  ZFirmwarePut,
  canManageFirmware,
  ZFirmware,
  ZFirmwareCreated,
  ZFirmwareLatest,
  ZFirmwareListQuery,
} from '@sc/shared/firmware';
import { ZBoolParam, paginated } from '@sc/shared/list';
import { AUTH_ERRORS, requestMeta, requireActor } from '../../http/authenticate.ts';
import { AppError, badRequest, zodToFields } from '../../http/errors.ts';
import { cleanFileName, multipartParts, readMultipart } from '../../http/multipart.ts';
import { FILE_FIELD } from '../../http/openapi.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  guard,
  parseId,
  signedIn as preValidation,
} from '../../http/route-helpers.ts';
import {
  createFirmware,
  createFirmwareFromPath,
  updateFirmware,
  deleteFirmware,
  downloadFirmware,
  getFirmware,
  getLatestFirmware,
  listFirmware,
  type FirmwareForm,
} from './firmware.service.ts';

const tags = ['firmware'];
const WHO = `Allowed: ${FIRMWARE_ROLES.join(', ')} (403 otherwise).`;

const ZDeleted = z.object({ detail: z.string() });

/** Reads the form: the `file` part (at most 2 MB kept; the rest is read and dropped) and the `version` field. */
async function readFirmwareForm(request: FastifyRequest): Promise<FirmwareForm> {
  const form: FirmwareForm = { version: undefined, file: null };
  if (!request.isMultipart()) return form;
  await readMultipart(async () => {
    for await (const part of multipartParts(request, FIRMWARE_MAX_BYTES)) {
      if (part.type === 'field') {
        if (part.fieldname === 'version' && typeof part.value === 'string') form.version = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || form.file) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        chunks.push(chunk);
      }
      const tooLarge = part.file.truncated || size > FIRMWARE_MAX_BYTES;
      form.file = {
        name: cleanFileName(part.filename),
        data: tooLarge ? null : Buffer.concat(chunks),
        size: tooLarge ? FIRMWARE_MAX_BYTES + 1 : size,
        tooLarge,
      };
    }
  });
  return form;
}

export const firmwareRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/firmware/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Firmware versions, newest first (search, version)',
        description: WHO,
        querystring: ZFirmwareListQuery,
        response: { 200: paginated(ZFirmware) },
      },
    },
    async (request) => listFirmware(app.ctx, requireActor(request), request.query, request),
  );

  app.post(
    '/firmware/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary:
          'Create a firmware version: JSON {version, path} of a file uploaded with POST file/upload/ into firmware/ (part 3 §7), or multipart (file, optional version)',
        description: `${WHO} JSON: version and path are required ('Version is required.', 'Path is required.'); the path must be one POST file/upload/ answered for folder firmware, and the version the one on its first line. Multipart: the file must be of type .ibe, at most 2 MB, text whose first line is the version with a numeric part greater than 0 (v2.14). Answers 'file not accepted' (unreadable), 'file format invalid' (no version), 'already exists' (on version). It is stored under firmware/ with its SHA-256.`,
        consumes: ['application/json', 'multipart/form-data'],
        response: { 201: ZFirmwareCreated },
      },
      config: {
        apiDoc: {
          form: {
            properties: {
              file: FILE_FIELD('The .ibe file (at most 2 MB; its first line is the version).'),
              version: {
                type: 'string',
                description: "Optional: when sent, it must be the file's own version (its first line).",
                // Empty, so the page's "Try it out" does not send its placeholder 'string' as the version.
                example: '',
              },
            },
            required: ['file'],
          },
        },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (!request.isMultipart()) {
        // The role before the body (403 whatever was sent); the body is checked here, not by a body schema, so that
        // one route takes both kinds of body.
        if (!canManageFirmware(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
        const parsed = ZFirmwarePathInput.safeParse(request.body ?? {});
        if (!parsed.success) throw badRequest(zodToFields(parsed.error.issues));
        return reply.status(201).send(await createFirmwareFromPath(app.ctx, actor, parsed.data, requestMeta(request)));
      }
      const form = await readFirmwareForm(request);
      return reply.status(201).send(await createFirmware(app.ctx, actor, form, requestMeta(request)));
    },
  );

  // The devices' read, in a child plugin of its own so that only it computes ETags: a device sends the ETag of the
  // answer it holds in If-None-Match and hears 304 while the latest version is unchanged.
  await app.register(async (r) => {
    await r.register(etag);
    r.get(
      '/firmware/latest/',
      {
        preValidation,
        schema: {
          tags,
          security,
          summary: 'The latest firmware (version order) with its SHA-256 checksum and download url',
          description:
            'Any signed-in user (devices sign in as their technician). Send the ETag of the last answer in If-None-Match: 304 while it is still the latest. 404 when no firmware is on record.',
          response: { 200: ZFirmwareLatest },
        },
      },
      async (request, reply) => {
        requireActor(request);
        void reply.header('cache-control', 'private, no-cache');
        return getLatestFirmware(app.ctx);
      },
    );
  });

  app.get(
    '/firmware/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'One firmware version',
        description: WHO,
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZFirmware },
      },
    },
    async (request) =>
      getFirmware(app.ctx, requireActor(request), parseId(request.params.id), request.query.using_read_db === true),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/firmware/:id/',
      // 401, then 403 by role, before the body is looked at; then 404 for an unknown id.
      preValidation: guard(FIRMWARE_EDIT_ROLES),
      schema: {
        tags,
        security,
        summary:
          method === 'PUT'
            ? 'Point a firmware version at another uploaded file: {version, path} (ADMIN)'
            : 'Change the file or version of a firmware version: version and/or path (ADMIN)',
        description: `Allowed: ${FIRMWARE_EDIT_ROLES.join(', ')} (403 otherwise). path: a file POST file/upload/ stored in firmware/; version: the one on that file's first line, not another version's ('already exists').`,
        params: ZIdParams,
        body: method === 'PUT' ? ZFirmwarePut : ZFirmwarePatch,
        response: { 200: ZFirmwareCreated },
      },
      handler: async (request) =>
        updateFirmware(
          app.ctx,
          requireActor(request),
          parseId((request.params as { id: string }).id),
          request.body as z.infer<typeof ZFirmwarePatch>,
          requestMeta(request),
        ),
    });
  }

  app.get(
    '/firmware/:id/download/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: "The firmware file's exact bytes (attachment)",
        description: 'Any signed-in user: the console (ADMIN, SUB_ADMIN) and devices. Check the bytes against `checksum`.',
        params: ZIdParams,
      },
    },
    async (request, reply) => {
      requireActor(request);
      const file = await downloadFirmware(app.ctx, parseId(request.params.id));
      void reply
        .type('application/octet-stream')
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('content-length', String(file.size));
      if (file.checksum) void reply.header('x-checksum-sha256', file.checksum);
      return reply.send(file.body);
    },
  );

  app.delete(
    '/firmware/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        summary: 'Withdraw a firmware version (its file is removed; devices are no longer offered it)',
        description: 'Allowed: ADMIN (403 otherwise).',
        params: ZIdParams,
        response: { 200: ZDeleted },
      },
    },
    async (request) => deleteFirmware(app.ctx, requireActor(request), parseId(request.params.id), requestMeta(request)),
  );
};
