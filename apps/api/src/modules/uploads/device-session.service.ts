// GET device/session/: what a device app reads after sign-in (issue 8): the user, the PIN-reset flag, training
// status and certificate, the scan types they may upload today, and whether this device may upload for them.
import { todayIso } from '@sc/shared/patients';
import {
  allowedScanTypes,
  isCertifiedOn,
  type TDeviceSession,
  type TDeviceSessionQuery,
} from '@sc/shared/uploads';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { uploadRefusal } from './device-uploader.ts';
import { findDeviceWithLink, findUploaderUser } from './uploads.queries.ts';

export async function getDeviceSession(
  ctx: Pick<AppContext, 'database' | 'now'>,
  actor: Actor,
  query: TDeviceSessionQuery,
): Promise<TDeviceSession> {
  const { db } = ctx.database;
  const user = await findUploaderUser(db, actor.id);
  if (!user) throw new Error('The signed-in user vanished.');
  const today = todayIso(ctx.now());
  const device =
    query.serial_number === undefined ? undefined : await findDeviceWithLink(db, query.serial_number);
  const refusal = uploadRefusal(user, device, query.serial_number);
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    username: user.username,
    email: user.email,
    mobile: user.mobile,
    mobile_country_code: user.mobileCountryCode,
    user_type: user.userType,
    is_trainer: user.isTrainer,
    organization: user.organizationId,
    organization_data:
      user.organizationId !== null && user.organizationName !== null
        ? { id: user.organizationId, name: user.organizationName }
        : null,
    pin_reset_request: user.pinResetRequest,
    ibe_training_status: user.ibeTrainingStatus,
    certificate_issue_date: user.certificateIssueDate,
    certificate_expiry_date: user.certificateExpiryDate,
    is_certified: isCertifiedOn(user, today),
    allowed_scan_types: refusal === null ? allowedScanTypes(user, today) : [],
    device:
      query.serial_number === undefined
        ? null
        : {
            // The registered spelling when the device is known; an unknown serial is echoed as sent.
            serial_number: device?.serialNumber ?? query.serial_number,
            is_linked_to_organization:
              device != null && user.organizationId !== null && device.organizationId === user.organizationId,
          },
    can_upload: refusal === null,
    upload_refusal: refusal,
  };
}
