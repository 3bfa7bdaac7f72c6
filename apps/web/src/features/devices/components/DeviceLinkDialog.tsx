// Link or Transfer Device to Organization (part 2 §2.4, §4, §5): one dialog. Link (an unlinked device) posts the
// organization and the device; Transfer patches the device's active link with the new organization, and the API
// keeps the old link as history. Organization is required; the answer's 'Device Link Successfully' is announced.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DEVICE_MESSAGES, type TDevice } from '@sc/shared/devices';
import { MESSAGES } from '@sc/shared/validation';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useChangeDeviceLink } from '../devices.api.ts';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';

export type DeviceLinkMode = 'link' | 'transfer';

type DeviceLinkDialogProps = {
  opened: boolean;
  device: TDevice | null;
  mode: DeviceLinkMode;
  onClose: (saved: boolean) => void;
};

export function DeviceLinkDialog({ opened, device, mode, onClose }: DeviceLinkDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={mode === 'link' ? 'Link Device to Organization' : 'Transfer Device to Organization'}
      size="md"
      data-testid="device-link-dialog"
    >
      {opened && device && <DeviceLinkForm key={`${device.id}-${mode}`} device={device} mode={mode} onClose={onClose} />}
    </Modal>
  );
}

function DeviceLinkForm({ device, mode, onClose }: { device: TDevice; mode: DeviceLinkMode; onClose: (saved: boolean) => void }) {
  const change = useChangeDeviceLink();
  const [organization, setOrganization] = useState<number | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (organization === null) {
      setFieldError(MESSAGES.selectOrganization);
      return;
    }
    const linkId = device.organization_device_id;
    try {
      const saved =
        mode === 'transfer' && linkId !== null
          ? await change.mutateAsync({ linkId, patch: { organization } })
          : await change.mutateAsync({ link: { organization, device: device.id } });
      notifications.show({ color: 'teal', message: saved.detail || DEVICE_MESSAGES.linked });
      onClose(true);
    } catch (error) {
      // 403 and 5xx are announced by the client.
      if (error instanceof ApiError && (error.status === 403 || error.status >= 500)) return;
      const orgErrors = error instanceof ApiError ? error.body.organization : undefined;
      if (Array.isArray(orgErrors) && typeof orgErrors[0] === 'string') {
        setFieldError(orgErrors[0]);
        return;
      }
      const fields = error instanceof ApiError ? fieldErrorList(error.body) : [];
      setFormError(fields.length ? fields.map((f) => f.text).join(' ') : errorMessage(error));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="device-link-form">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" data-testid="device-link-error">
            {formError}
          </Alert>
        )}
        <Text size="sm">
          Device <b>{device.serial_number}</b>
          {mode === 'transfer' && device.organization_name ? <> — now with {device.organization_name}</> : null}
        </Text>
        <OrganizationPicker
          value={organization}
          excludeIds={mode === 'transfer' ? [device.organization] : []}
          error={fieldError}
          testId="device-organization-picker"
          onChange={(id) => {
            setOrganization(id);
            setFieldError(undefined);
          }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending} data-testid="device-link-submit">
            {mode === 'link' ? 'Link' : 'Transfer'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
