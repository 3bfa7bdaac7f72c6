// POST cervaical/ and POST orca/: device uploads of cervical and ORCA exams (issue 10, tag 'device upload'). The
// console's GETs on these paths live with their areas (modules/cervical, modules/orca). Rules live in the service.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CERVICAL_UPLOAD_EXAMPLE,
  EXAM_FILE_FOLDERS,
  ORCA_UPLOAD_EXAMPLE,
  ZCervicalUpload,
  ZExamUploadSaved,
  ZOrcaUpload,
} from '@sc/shared/exam-uploads';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_MIN,
  IDEMPOTENT_REPLAY_HEADER,
} from '@sc/shared/uploads';
import { requestMeta, requireActor } from '../../http/authenticate.ts';
import {
  DEVICE_UPLOAD_TAG,
  deviceUploadDocs,
  sendIdempotentAnswer,
} from '../uploads/device-upload.routes.ts';
import { readIdempotencyKey } from '../uploads/idempotency.ts';
import { uploadCervicalExam, uploadOrcaExam } from './exam-uploads.service.ts';

const security = [{ token: [] }];

// Signed in before the body is looked at: an anonymous caller learns 401, not the shape of a valid body.
const preValidation = async (request: FastifyRequest) => {
  requireActor(request);
};

const exampleBlock = (value: unknown): string => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

const rules = (app: string, files: string) =>
  `Device flow: sign in (source ${app}_APP), upload the exam's files with POST file/upload/ (${files}), POST patient/, then this call.\n\nThe exam belongs to the caller's organization and the caller is its technician; \`patient\` must be a patient of that organization; each path must be a file the caller uploaded into its folder. Allowed: TECHNICIAN, ORG_ADMIN, DISTRIBUTOR_ADMIN of an organization, from a device linked to it (403 otherwise).\n\nEvery upload carries an ${IDEMPOTENCY_KEY_HEADER} header (${IDEMPOTENCY_KEY_MIN}–${IDEMPOTENCY_KEY_MAX} characters of letters, digits and - _ . :, e.g. a UUID). A retry with the same key and body answers the stored status and body with ${IDEMPOTENT_REPLAY_HEADER}: true; the same key with another body answers 422; parallel copies store one exam. The same (device_serial_number, local_db_id) under a new key answers 200 with the stored exam when patient, time and files are the same, else 400 on local_db_id.\n\n**Licences**: each stored exam takes one ${app} licence of the organization in the same transaction (a log row on the licence); \`licenses_left\` says how many remain. With none left the answer is 403 with the reason and nothing is stored.`;

export const examUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cervaical/',
    {
      preValidation,
      schema: {
        tags: [DEVICE_UPLOAD_TAG],
        security,
        summary: 'Upload a cervical exam from a device (takes one CERVAICAL licence)',
        description: `${rules('CERVAICAL', `folders ${EXAM_FILE_FOLDERS.reports}, ${EXAM_FILE_FOLDERS.consent_form} and ${EXAM_FILE_FOLDERS.documents} for the photos and videos`)}\n\nExample body:\n\n${exampleBlock(CERVICAL_UPLOAD_EXAMPLE)}`,
        headers: deviceUploadDocs.headers,
        body: ZCervicalUpload,
        response: { 200: ZExamUploadSaved, 201: ZExamUploadSaved },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request);
      const answer = await uploadCervicalExam(app.ctx, actor, request.body, key, requestMeta(request));
      return sendIdempotentAnswer(reply, answer);
    },
  );

  app.post(
    '/orca/',
    {
      preValidation,
      schema: {
        tags: [DEVICE_UPLOAD_TAG],
        security,
        summary: 'Upload an ORCA exam from a device (takes one ORCA licence)',
        description: `${rules('ORCA', `folders ${EXAM_FILE_FOLDERS.reports}, ${EXAM_FILE_FOLDERS.consent_form} and ${EXAM_FILE_FOLDERS.findings} for the finding photos`)} \`license_code\` (optional): the key the app was activated with; the licence taken is then that one (400 when it is not an active ORCA licence of the organization).\n\nExample body:\n\n${exampleBlock(ORCA_UPLOAD_EXAMPLE)}`,
        headers: deviceUploadDocs.headers,
        body: ZOrcaUpload,
        response: { 200: ZExamUploadSaved, 201: ZExamUploadSaved },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request);
      const answer = await uploadOrcaExam(app.ctx, actor, request.body, key, requestMeta(request));
      return sendIdempotentAnswer(reply, answer);
    },
  );
};
