// Add / Edit Device (part 2 §2.4, §5, §6, §7): create with a serial number (required, unique), details read-only
// with an Edit button enabled only for ADMIN, and edit. Before creating, the serial number is looked up: when
// a device already has it, the dialog opens that device instead (in edit mode for ADMIN, details for others).
import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { DEVICE_MESSAGES, SILENT_AFTER_DAYS, ZDeviceInput, canDevice, type TDevice } from '@sc/shared/devices';
import type { TUserType } from '@sc/shared/roles';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { findDeviceBySerial, useDevice, useSaveDevice } from '../devices.api.ts';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

export type DeviceFormMode = 'create' | 'details' | 'edit';

/** What the dialog shows: the parent holds it, so a lookup or the Edit button can change it (and the title). */
export type DeviceFormView = { mode: DeviceFormMode; deviceId?: number; notice?: string };

type DeviceFormDialogProps = {
  opened: boolean;
  role: TUserType;
  view: DeviceFormView;
  onViewChange: (view: DeviceFormView) => void;
  onClose: (saved: boolean) => void;
};

const TITLES: Record<DeviceFormMode, string> = { create: 'Add Device', details: 'Device Details', edit: 'Edit Device' };

export function DeviceFormDialog({ opened, role, view, onViewChange, onClose }: DeviceFormDialogProps) {
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title={TITLES[view.mode]} size="md" data-testid="device-form-dialog">
      {/* Remounted for each view, so a form starts from the device it shows. */}
      {opened && (
        <DeviceFormBody key={`${view.mode}-${view.deviceId ?? 'new'}`} role={role} view={view} onViewChange={onViewChange} onClose={onClose} />
      )}
    </Modal>
  );
}

type BodyProps = Omit<DeviceFormDialogProps, 'opened'>;

function DeviceFormBody({ role, view, onViewChange, onClose }: BodyProps) {
  const { mode, deviceId, notice } = view;
  const device = useDevice(mode === 'create' ? undefined : deviceId);
  const canEdit = canDevice(role, 'device.edit');

  if (mode !== 'create' && device.isPending) return <Loader size="sm" data-testid="device-form-loading" />;
  if (mode !== 'create' && !device.data) {
    return <Alert color="red">{device.error ? errorMessage(device.error) : 'Not found.'}</Alert>;
  }

  return (
    <Stack gap="md">
      {notice && (
        <Alert color="blue" variant="light" data-testid="device-form-notice">
          {notice}
        </Alert>
      )}
      {mode === 'details' && device.data ? (
        <DeviceDetails
          device={device.data}
          canEdit={canEdit}
          onEdit={() => onViewChange({ mode: 'edit', deviceId })}
          onClose={() => onClose(false)}
        />
      ) : (
        <DeviceForm
          device={mode === 'edit' ? device.data : undefined}
          onClose={onClose}
          onExisting={(existing) =>
            onViewChange({
              mode: canEdit ? 'edit' : 'details',
              deviceId: existing.id,
              notice: `A device with serial number ${existing.serial_number} already exists.`,
            })
          }
        />
      )}
    </Stack>
  );
}

function DeviceDetails({ device, canEdit, onEdit, onClose }: { device: TDevice; canEdit: boolean; onEdit: () => void; onClose: () => void }) {
  const rows: [string, ReactNode][] = [
    ['Serial number', device.serial_number],
    ['Organization', device.organization_name ?? 'Not linked'],
    ['Scan count', device.scan_count],
    ['Last sync', device.last_sync_date ? <ListDate value={device.last_sync_date} /> : 'Never'],
    ['Created', <ListDate key="c" value={device.created} />],
    [
      'Firmware',
      <Group key="f" gap="xs">
        <span>{device.software_version ?? 'Unknown'}</span>
        {device.is_firmware_outdated && (
          <Badge color="orange" variant="light" size="sm">
            Update to {device.latest_firmware}
          </Badge>
        )}
      </Group>,
    ],
    ['Silent', device.is_silent ? `Yes: no upload for over ${SILENT_AFTER_DAYS} days` : 'No'],
  ];
  return (
    <Stack gap="md" data-testid="device-details">
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={140} fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <RecordHistoryButton targetType="device" targetId={device.id} />
        {/* Part 2 §6: the edit button is enabled only for ADMIN. */}
        <Button onClick={onEdit} disabled={!canEdit} data-testid="device-edit">
          Edit
        </Button>
      </Group>
    </Stack>
  );
}

type DeviceFormProps = {
  device?: TDevice;
  onClose: (saved: boolean) => void;
  onExisting: (device: TDevice) => void;
};

function DeviceForm({ device, onClose, onExisting }: DeviceFormProps) {
  const save = useSaveDevice();
  const [checking, setChecking] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { serial_number: device?.serial_number ?? '' },
    validate: schemaResolver(ZDeviceInput, { sync: true }),
  });
  const busy = save.isPending || checking;

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const input = ZDeviceInput.parse(values);
    try {
      if (!device) {
        setChecking(true);
        const existing = await findDeviceBySerial(input.serial_number).finally(() => setChecking(false));
        if (existing) {
          onExisting(existing);
          return;
        }
      }
      const saved = await save.mutateAsync({ id: device?.id, input });
      notifications.show({ color: 'teal', message: saved.detail || (device ? DEVICE_MESSAGES.updated : DEVICE_MESSAGES.created) });
      onClose(true);
    } catch (error) {
      const serialErrors = error instanceof ApiError ? error.body.serial_number : undefined;
      if (Array.isArray(serialErrors) && typeof serialErrors[0] === 'string') {
        form.setFieldError('serial_number', serialErrors[0]);
        return;
      }
      if (error instanceof ApiError && (error.status === 403 || error.status >= 500)) return;
      const fields = error instanceof ApiError ? fieldErrorList(error.body) : [];
      setFormError(fields.length ? fields.map((f) => f.text).join(' ') : errorMessage(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="device-form">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" data-testid="device-form-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label="Serial number"
          placeholder="Enter the device's serial number"
          withAsterisk
          data-autofocus
          data-testid="device-serial"
          {...form.getInputProps('serial_number')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} data-testid="device-submit">
            {device ? 'Save' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
