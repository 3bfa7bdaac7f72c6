// The device upload API's shared route pieces (tag 'device upload' in the OpenAPI page) and GET device/session/.
// POST patient/ and POST scan/ live with their areas (modules/patients, modules/scans) and use these.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PATIENT_UPLOAD_EXAMPLE } from '@sc/shared/patients';
import { SCAN_UPLOAD_EXAMPLE } from '@sc/shared/scans';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_MIN,
  IDEMPOTENT_REPLAY_HEADER,
  UNCERTIFIED_SCAN_TYPES,
  ZDeviceSession,
  ZDeviceSessionQuery,
} from '@sc/shared/uploads';
import { requireActor } from '../../http/authenticate.ts';
import { getDeviceSession } from './device-session.service.ts';
import type { IdempotentAnswer } from './idempotency.ts';

export const DEVICE_UPLOAD_TAG = 'device upload';

const FLOW = `Device flow: sign in with the mobile code (POST auth/otp/, POST auth/otp/verify/, POST user/login/ with source IBE_APP), read GET device/session/?serial_number=…, upload the scan's files with POST file/upload/ (folders reports, consent_forms, assessment_files), then POST patient/ and POST scan/.`;

const IDEMPOTENCY = `Every upload carries an ${IDEMPOTENCY_KEY_HEADER} header (${IDEMPOTENCY_KEY_MIN}–${IDEMPOTENCY_KEY_MAX} characters of letters, digits and - _ . :, e.g. a UUID). A retry with the same key and body answers the stored status and body with ${IDEMPOTENT_REPLAY_HEADER}: true; the same key with another body answers 422; parallel copies store one object.`;

/** A JSON code block for the OpenAPI page (Swagger UI renders descriptions as Markdown). */
const exampleBlock = (value: unknown): string => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

export const deviceUploadDocs = {
  headers: z.looseObject({
    [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: z
      .string()
      .optional()
      .describe(`Required. A new unique key per upload, repeated on its retries (e.g. a UUID).`),
  }),
  patient: `${FLOW}\n\nThe patient belongs to the caller's organization and the caller is its technician. Allowed: TECHNICIAN, ORG_ADMIN, DISTRIBUTOR_ADMIN of an organization, from a device linked to it (403 otherwise). ${IDEMPOTENCY}\n\nExample body:\n\n${exampleBlock(PATIENT_UPLOAD_EXAMPLE)}`,
  scan: `${FLOW}\n\nThe scan belongs to the caller's organization and the caller is its technician; \`patient\` must be a patient of that organization; each path of scan_files_path must be a file the caller uploaded into its folder (reports → reports, consent_form → consent_forms, assessment_files → assessment_files). An uncertified technician (or one whose certificate expired) may upload ${UNCERTIFIED_SCAN_TYPES.join(', ')} scans only (403). ${IDEMPOTENCY} Duplicates: the same (device_serial_number, local_db_id) again with identical content answers 200 with the stored scan; with different content it is stored as a child (parent_scan_id) and answers 201. A new SCAN is sent to the organization's webhook.\n\nExample body (paths as POST file/upload/ answered them):\n\n${exampleBlock(SCAN_UPLOAD_EXAMPLE)}`,
} as const;

/** Sends an upload's answer; a replay from a stored key says so in a header. */
export function sendIdempotentAnswer(reply: FastifyReply, answer: IdempotentAnswer): FastifyReply {
  if (answer.replayed) void reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
  return reply.status(answer.status).send(answer.body);
}

export const deviceSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/device/session/',
    {
      preValidation: async (request) => {
        requireActor(request);
      },
      schema: {
        tags: [DEVICE_UPLOAD_TAG],
        security: [{ token: [] }],
        summary:
          'The signed-in user as a device sees it: PIN reset flag, training status, whether it may upload',
        description: `${FLOW}\n\nAny signed-in user may call it; \`can_upload\` and \`upload_refusal\` say whether the user may upload from the device named by \`serial_number\` (or from a linked device, when none is named), and \`allowed_scan_types\` which scan types (an uncertified technician: ${UNCERTIFIED_SCAN_TYPES.join(', ')}). \`pin_reset_request\` true: an administrator asked for a new PIN.`,
        querystring: ZDeviceSessionQuery,
        response: { 200: ZDeviceSession },
      },
    },
    async (request) => getDeviceSession(app.ctx, requireActor(request), request.query),
  );
};
