// patient/ (part 2 §7 Patients). `POST patient/` serves two callers: a body naming `device_serial_number` is a device
// upload (tag 'device upload', uploader rules, Idempotency-Key); any other body is the console's create (organization
// and technician chosen by a console role). The list, one patient, PATCH, DELETE, the transfer and the transfer
// dialog's reports are console calls. Rules live in the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBoolParam, paginated } from '@sc/shared/list';
import {
  PATIENT_ACTIONS,
  canPatient,
  ZPatient,
  ZPatientCreate,
  ZPatientDetail,
  ZPatientListQuery,
  ZPatientPatch,
  ZPatientReports,
  ZPatientSaved,
  ZPatientTransfer,
  ZPatientUpload,
} from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { requestMeta, requireActor, requireRole } from '../../http/authenticate.ts';
import {
  TOKEN_SECURITY as security,
  ZIdParams,
  guard,
  listRequest,
  metaOf,
  parseId,
  signedIn,
} from '../../http/route-helpers.ts';
import {
  DEVICE_UPLOAD_TAG,
  deviceUploadDocs,
  sendIdempotentAnswer,
} from '../uploads/device-upload.routes.ts';
import { readIdempotencyKey } from '../uploads/idempotency.ts';
import { auditRead } from '../../http/read-audit.ts';
import {
  createConsolePatient,
  deleteConsolePatient,
  getPatient,
  getPatientReports,
  listPatients,
  transferConsolePatient,
  updateConsolePatient,
  uploadPatient,
} from './patients.service.ts';

const tags = ['patients'];
const READ = PATIENT_ACTIONS['patient.read'];

/**
 * A device upload names the device it comes from; the console's create never does. A caller who cannot create
 * from the console (a technician) is always a device, so a missing serial is its upload's field error.
 */
const isDeviceUpload = (body: Record<string, unknown>, userType: TUserType): boolean =>
  body.device_serial_number !== undefined || !canPatient(userType, 'patient.create');

export const patientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/patient/',
    {
      // Signed in before the body is looked at: an anonymous caller learns 401, not the shape of a valid body.
      preValidation: signedIn,
      schema: {
        // One area per operation: the device's upload (the console's create is described with it).
        tags: [DEVICE_UPLOAD_TAG],
        security,
        summary:
          'Create a patient: from a device (body with device_serial_number; technician of the organization, device linked to it, Idempotency-Key) or from the console (organization and technician; ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN, MANAGER, ORG_ADMIN)',
        description: `${deviceUploadDocs.patient}\n\nFrom the console (no device_serial_number): first_name, last_name, age or date_of_birth, gender, email, mobile with mobile_country_code, clinic_patient_id, physician_name, physician_email, reference, organization (not for an ORG_ADMIN: its own) and technician (a valid TECHNICIAN of that organization).`,
        headers: deviceUploadDocs.headers,
        // Which schema applies depends on the body (see isDeviceUpload); both are checked in the handler.
        body: z.looseObject({}, { error: 'Expected an object.' }),
        response: { 201: ZPatientSaved },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const body = request.body as Record<string, unknown>;
      if (isDeviceUpload(body, actor.userType)) {
        const input = ZPatientUpload.parse(body);
        const key = readIdempotencyKey(request);
        const answer = await uploadPatient(app.ctx, actor, input, key, requestMeta(request));
        return sendIdempotentAnswer(reply, answer);
      }
      requireRole(request, PATIENT_ACTIONS['patient.create']);
      const input = ZPatientCreate.parse(body);
      return reply.status(201).send(await createConsolePatient(app.ctx, actor, input, metaOf(request)));
    },
  );

  app.get(
    '/patient/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: "Patients in the caller's scope (search by name, period on created, gender, organization, assigned)",
        querystring: ZPatientListQuery,
        response: { 200: paginated(ZPatient) },
      },
    },
    async (request) =>
      listPatients(app.ctx, requireRole(request, READ), request.query, listRequest(request)),
  );

  app.get(
    '/patient/:id/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: "One patient (404 when missing or outside the caller's scope)",
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZPatient },
      },
    },
    async (request) => {
      const patient = await getPatient(app.ctx, requireRole(request, READ), parseId(request.params.id), request.query.using_read_db);
      await auditRead(app.ctx, request, { kind: 'patient', id: patient.id, organizationId: patient.organization });
      return patient;
    },
  );

  app.get(
    '/patient/:id/reports/',
    {
      preValidation: guard(READ),
      schema: {
        tags,
        security,
        summary: "The patient's scans, cervical and ORCA exams (up to 1000 each, newest first) for the transfer dialog",
        params: ZIdParams,
        querystring: z.object({ using_read_db: ZBoolParam.optional() }),
        response: { 200: ZPatientReports },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const { reports, organizationId } = await getPatientReports(
        app.ctx,
        requireRole(request, READ),
        id,
        request.query.using_read_db,
      );
      // The transfer dialog opens the patient (name, age, the mobile of each exam): a read of the patient.
      await auditRead(app.ctx, request, { kind: 'patient', id, organizationId, details: { view: 'reports' } });
      return reports;
    },
  );

  app.patch(
    '/patient/:id/',
    {
      preValidation: guard(PATIENT_ACTIONS['patient.edit']),
      schema: {
        tags,
        security,
        summary:
          'Edit a patient (the technician only by ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN, MANAGER; the organization only by a transfer)',
        params: ZIdParams,
        body: ZPatientPatch,
        response: { 200: ZPatientSaved },
      },
    },
    async (request) => {
      const actor = requireRole(request, PATIENT_ACTIONS['patient.edit']);
      return updateConsolePatient(app.ctx, actor, parseId(request.params.id), request.body, metaOf(request));
    },
  );

  app.delete(
    '/patient/:id/',
    {
      preValidation: guard(PATIENT_ACTIONS['patient.delete']),
      schema: {
        tags,
        security,
        summary: 'Delete a patient with its scans, cervical and ORCA exams (ADMIN)',
        params: ZIdParams,
        response: { 200: ZPatientDetail },
      },
    },
    async (request) => {
      const actor = requireRole(request, PATIENT_ACTIONS['patient.delete']);
      return deleteConsolePatient(app.ctx, actor, parseId(request.params.id), metaOf(request));
    },
  );

  app.post(
    '/patient/transfer/:id/',
    {
      preValidation: guard(PATIENT_ACTIONS['patient.transfer']),
      schema: {
        tags,
        security,
        summary:
          'Move a patient and its scans, cervical and ORCA exams to an organization and technician (ORG_ADMIN: a technician of its own organization)',
        params: ZIdParams,
        body: ZPatientTransfer,
        response: { 200: ZPatientSaved },
      },
    },
    async (request) => {
      const actor = requireRole(request, PATIENT_ACTIONS['patient.transfer']);
      return transferConsolePatient(app.ctx, actor, parseId(request.params.id), request.body, metaOf(request));
    },
  );
};
