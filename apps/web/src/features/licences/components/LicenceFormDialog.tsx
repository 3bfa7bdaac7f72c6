// Add License / Edit License (part 3 §2, §4, §5, §8). Add: organization ('Select an organization'), application
// ORCA or CERVAICAL, and the count from 100 in steps of 100. Edit is the renewal: organization and application are
// read-only, the amount added starts at 0, and the dialog shows the current total, the amount added and the total
// after the update (the PATCH sends that total as `count`). A failed save is shown in the form error area for 5 s.
import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { LICENCE_APPLICATIONS, LICENCE_MIN_COUNT } from '@sc/shared/constants';
import { LICENCE_APPLICATION_LABELS, labelOf } from '@sc/shared/labels';
import { ZLicenceInput, renewalOf, type TLicence, type TLicenceApplication } from '@sc/shared/licences';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { useLicence, useSaveLicence } from '../licences.api.ts';
import { LicenceCountStepper } from './LicenceCountStepper.tsx';

type LicenceFormDialogProps = {
  opened: boolean;
  /** Undefined: Add License; a licence id: Edit License (renew). */
  licenceId?: number;
  onClose: (saved: boolean) => void;
};

export function LicenceFormDialog({ opened, licenceId, onClose }: LicenceFormDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={licenceId === undefined ? 'Add License' : 'Edit License'}
      size="md"
      data-testid="licence-form-dialog"
    >
      {opened &&
        (licenceId === undefined ? (
          <AddLicenceForm onClose={onClose} />
        ) : (
          <RenewLoader id={licenceId} onClose={onClose} />
        ))}
    </Modal>
  );
}

/** Server errors of a save: the form error area for 401/403/5xx is the client's own handling, not repeated here. */
function useSaveErrors() {
  const area = useErrorArea();
  const report = (error: unknown) => {
    console.error('Licence save failed', error);
    if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
    const list = error instanceof ApiError ? fieldErrorList(error.body) : [];
    area.show(list.length > 0 ? list : [{ title: 'error', text: errorMessage(error) }]);
  };
  return { errors: area.errors, report, clear: area.clear };
}

function AddLicenceForm({ onClose }: { onClose: (saved: boolean) => void }) {
  const save = useSaveLicence();
  const errors = useSaveErrors();
  const [organization, setOrganization] = useState<number | null>(null);
  const [application, setApplication] = useState<TLicenceApplication | null>(null);
  const [count, setCount] = useState(LICENCE_MIN_COUNT);
  const [invalid, setInvalid] = useState<Record<string, string>>({});

  const submit = async () => {
    errors.clear();
    const parsed = ZLicenceInput.safeParse({ organization, application, count, is_active: true });
    if (!parsed.success) {
      setInvalid(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setInvalid({});
    try {
      const saved = await save.mutateAsync({ input: parsed.data });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      errors.report(error);
    }
  };

  return (
    <Stack gap="md" data-testid="licence-add-form">
      <FormErrorArea errors={errors.errors} testId="licence-form-errors" />
      <OrganizationPicker
        value={organization}
        onChange={(id) => setOrganization(id)}
        error={invalid.organization}
        testId="licence-organization"
      />
      <Select
        label="Application"
        placeholder="Select an application"
        withAsterisk
        data={LICENCE_APPLICATIONS.map((a) => ({ value: a, label: LICENCE_APPLICATION_LABELS[a] }))}
        value={application}
        onChange={(v) => setApplication(v as TLicenceApplication | null)}
        error={invalid.application}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="licence-application"
      />
      <LicenceCountStepper
        label="License Count"
        value={count}
        min={LICENCE_MIN_COUNT}
        onChange={setCount}
        error={invalid.count}
        testId="licence-count"
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => onClose(false)}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending} data-testid="licence-submit">
          Submit
        </Button>
      </Group>
    </Stack>
  );
}

function RenewLoader({ id, onClose }: { id: number; onClose: (saved: boolean) => void }) {
  const licence = useLicence(id);
  if (licence.isPending) return <Loader size="sm" data-testid="licence-form-loading" />;
  if (!licence.data)
    return <Alert color="red">{licence.error ? errorMessage(licence.error) : 'Not found.'}</Alert>;
  return <RenewLicenceForm licence={licence.data} onClose={onClose} />;
}

function RenewLicenceForm({ licence, onClose }: { licence: TLicence; onClose: (saved: boolean) => void }) {
  const save = useSaveLicence();
  const errors = useSaveErrors();
  const [added, setAdded] = useState(0);
  const renewal = renewalOf(licence.total_license_count, added);

  const submit = async () => {
    errors.clear();
    try {
      const saved = await save.mutateAsync({
        id: licence.id,
        patch: {
          organization: licence.organization.id,
          application: licence.application,
          count: renewal.total,
          is_active: licence.is_active,
        },
      });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      errors.report(error);
    }
  };

  return (
    <Stack gap="md" data-testid="licence-renew-form">
      <FormErrorArea errors={errors.errors} testId="licence-form-errors" />
      <TextInput
        label="Organization"
        value={licence.organization.name}
        readOnly
        data-testid="licence-organization"
      />
      <TextInput
        label="Application"
        value={labelOf(LICENCE_APPLICATION_LABELS, licence.application)}
        readOnly data-testid="licence-application" />
      <Text size="sm" c="dimmed">
        License Key {licence.license_code} · {licence.count} of {licence.total_license_count} available
      </Text>
      <LicenceCountStepper
        label="Add License Count"
        value={added}
        min={0}
        onChange={setAdded}
        testId="licence-added"
      />
      <SimpleGrid cols={3} spacing="xs" data-testid="licence-renewal-summary">
        <Summary label="Current Count" value={renewal.current} testId="licence-current" />
        <Summary label="Added" value={`+${renewal.added}`} testId="licence-added-summary" />
        <Summary label="Total After Update" value={renewal.total} testId="licence-total" />
      </SimpleGrid>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => onClose(false)}>
          Cancel
        </Button>
        <Button
          onClick={() => void submit()}
          loading={save.isPending}
          disabled={added === 0}
          data-testid="licence-submit"
        >
          Update
        </Button>
      </Group>
    </Stack>
  );
}

function Summary({ label, value, testId }: { label: string; value: number | string; testId: string }) {
  return (
    <Stack
      gap={0}
      p="xs"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}
