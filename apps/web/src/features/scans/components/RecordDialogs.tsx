// The dialogs a list's cells open (part 2 §2.7, part 3 §2): the patient's (read-only), the user's and the device's.
// One hook for the breast scan, cervical and ORCA lists: `open*` from a cell, `dialogs` rendered once beside the list.
import { useState } from 'react';
import type { TUserType } from '@sc/shared/roles';
import { DeviceFormDialog, type DeviceFormView } from '../../devices/components/DeviceFormDialog.tsx';
import { PatientFormDialog } from '../../patients/components/PatientFormDialog.tsx';
import { UserFormDialog, type UserFormView } from '../../users/components/UserFormDialog.tsx';

export function useRecordDialogs(role: TUserType) {
  const [patientId, setPatientId] = useState<number | null>(null);
  const [userView, setUserView] = useState<UserFormView | null>(null);
  const [deviceView, setDeviceView] = useState<DeviceFormView | null>(null);

  const dialogs = (
    <>
      <PatientFormDialog
        opened={patientId !== null}
        view={{ mode: 'details', patientId: patientId ?? undefined }}
        onViewChange={() => undefined}
        readOnly
        onClose={() => setPatientId(null)}
      />
      <UserFormDialog
        opened={userView !== null}
        view={userView ?? { mode: 'details' }}
        onViewChange={setUserView}
        onClose={() => setUserView(null)}
      />
      <DeviceFormDialog
        opened={deviceView !== null}
        role={role}
        view={deviceView ?? { mode: 'details' }}
        onViewChange={setDeviceView}
        onClose={() => setDeviceView(null)}
      />
    </>
  );

  return {
    openPatient: (id: number) => setPatientId(id),
    openUser: (id: number) => setUserView({ mode: 'details', userId: id }),
    openDevice: (id: number) => setDeviceView({ mode: 'details', deviceId: id }),
    dialogs,
  };
}
