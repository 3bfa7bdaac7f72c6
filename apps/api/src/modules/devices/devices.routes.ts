// device/ and organization/device/ (part 2 §7 Devices): the device list (JSON, or the CSV with format=csv), one
// device, create and edit; the organization-device links: list, one link, link, unassign or transfer, delete.
// Rules live in the service; each route authenticates and checks the role before its body is validated.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_ACTIONS,
  DEVICE_CSV_FILENAME,
  DEVICE_LINK_CHANGE_ROLES,
  ZDevice,
  ZDeviceInput,
  ZDeviceLink,
  ZDeviceLinkGetQuery,
  ZDeviceLinkInput,
  ZDeviceLinkPatch,
  ZDeviceLinkSaved,
  ZDeviceListQuery,
  ZDeviceSaved,
} from '@sc/shared/devices';
import { ZBoolParam, paginated } from '@sc/shared/list';
import { requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  csvRequest,
  guard,
  listRequest,
  metaOf,
  parseId,
  csvDownloadName,
  sendCsv,
} from '../../http/route-helpers.ts';
import {
  changeDeviceLink,
  createDevice,
  deleteDeviceLink,
  getDevice,
  getDeviceLink,
  linkDevice,
  listDeviceLinks,
  listDevices,
  streamDevicesCsv,
  updateDevice,
} from './devices.service.ts';

const tags = ['devices'];
const ZDetail = z.object({ detail: z.string() });
const READ = DEVICE_ACTIONS['device.read'];

export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/device/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: "Devices in the caller's scope; format=csv streams device_details.csv (SUB_ADMIN, ADMIN)",
        querystring: ZDeviceListQuery,
        response: { 200: paginated(ZDevice) },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, READ);
      if (request.query.format !== 'csv') return listDevices(app.ctx, actor, request.query, listRequest(request));
      const stream = await streamDevicesCsv(app.ctx, actor, request.query, csvRequest(request));
      // Fastify sends a stream as it is (only objects are serialized); the response schema describes the JSON list.
      return sendCsv(reply, csvDownloadName(DEVICE_CSV_FILENAME, request, app.ctx.now()), stream);
    },
  );

  app.post(
    '/device/',
    {
      preValidation: guard(DEVICE_ACTIONS['device.create']),
      schema: { tags, security, summary: 'Register a device (ADMIN, SUB_ADMIN, MANAGER)', body: ZDeviceInput, response: { 201: ZDeviceSaved } },
    },
    async (request, reply) => {
      const actor = requireRole(request, DEVICE_ACTIONS['device.create']);
      return reply.status(201).send(await createDevice(app.ctx, actor, request.body, metaOf(request)));
    },
  );

  app.get(
    '/device/:id/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'One device (404 when missing or outside the caller’s scope)',
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZDevice },
      },
    },
    async (request) =>
      getDevice(app.ctx, requireRole(request, READ), parseId(request.params.id), request.query.using_read_db),
  );

  app.put(
    '/device/:id/',
    {
      preValidation: guard(DEVICE_ACTIONS['device.edit']),
      schema: { tags, security, summary: 'Edit a device’s serial number (ADMIN)', params: ZIdParams, body: ZDeviceInput, response: { 200: ZDeviceSaved } },
    },
    async (request) => {
      const actor = requireRole(request, DEVICE_ACTIONS['device.edit']);
      return updateDevice(app.ctx, actor, parseId(request.params.id), request.body, metaOf(request));
    },
  );

  app.get(
    '/organization/device/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'The active organization links of the devices in the caller’s scope (the device list’s filters)',
        querystring: ZDeviceListQuery,
        response: { 200: paginated(ZDeviceLink) },
      },
    },
    async (request) => listDeviceLinks(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/organization/device/:id/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: 'One organization–device link, active or ended',
        params: ZIdParams,
        querystring: ZDeviceLinkGetQuery,
        response: { 200: ZDeviceLink },
      },
    },
    async (request) => getDeviceLink(app.ctx, requireRole(request, READ), parseId(request.params.id), request.query),
  );

  app.post(
    '/organization/device/',
    {
      preValidation: guard(DEVICE_ACTIONS['device.link']),
      schema: {
        tags,
        security,
        summary: 'Link an unlinked device to an organization (SUB_ADMIN, MANAGER, ADMIN)',
        body: ZDeviceLinkInput,
        response: { 201: ZDeviceLinkSaved },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request, DEVICE_ACTIONS['device.link']);
      return reply.status(201).send(await linkDevice(app.ctx, actor, request.body, metaOf(request)));
    },
  );

  app.patch(
    '/organization/device/:id/',
    {
      preValidation: guard(DEVICE_LINK_CHANGE_ROLES),
      schema: {
        tags,
        security,
        summary: '{organization: null} unassigns; another organization transfers (a new link; the old one is history)',
        params: ZIdParams,
        body: ZDeviceLinkPatch,
        response: { 200: ZDeviceLinkSaved },
      },
    },
    async (request) => {
      const actor = requireRole(request, DEVICE_LINK_CHANGE_ROLES);
      return changeDeviceLink(app.ctx, actor, parseId(request.params.id), request.body, metaOf(request));
    },
  );

  app.delete(
    '/organization/device/:id/',
    {
      preValidation: guard(DEVICE_ACTIONS['device.deleteLink']),
      schema: { tags, security, summary: 'End a device’s active link (kept as history)', params: ZIdParams, response: { 200: ZDetail } },
    },
    async (request) => {
      const actor = requireRole(request, DEVICE_ACTIONS['device.deleteLink']);
      return deleteDeviceLink(app.ctx, actor, parseId(request.params.id), metaOf(request));
    },
  );
};
