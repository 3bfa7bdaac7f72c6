// The report period modal (part 3 "Report period modal", §4 Report period form, §5 Report form, §6, §8): a static
// modal (a click outside does not close it) with the year, the period type and its matching choice, and the
// organization search for the roles of part 3 §6. Download report fetches the CSV of the chosen period against the
// previous one and saves it under the file name of part 3 §9; with no rows 'No scans found' shows for 5 s; any
// other failure closes the modal.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { TUserType } from '@sc/shared/roles';
import {
  REPORT_MESSAGES,
  REPORT_MESSAGE_MS,
  REPORT_ORGANIZATION_FILTER_ROLES,
  REPORT_PATHS,
  REPORT_PERIOD_LABELS,
  REPORT_TITLES,
  checkReportForm,
  completedChoices,
  periodChoiceLabels,
  periodRange,
  periodTypesFor,
  reportFileName,
  reportQueryFor,
  reportYears,
  type TReportForm,
  type TReportKind,
  type TReportPeriodType,
} from '@sc/shared/reports';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { downloadCsv, saveBlob } from '../../../api/csv.ts';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';

type ReportPeriodModalProps = {
  kind: TReportKind | null;
  role: TUserType;
  onClose: () => void;
  /** The user's date (YYYY-MM-DD); today by default. */
  today?: string;
};

const EMPTY: TReportForm = { year: null, type: null, index: null };
type Errors = Partial<Record<'year' | 'type' | 'index', string>>;

const CHOICE_LABEL: Record<Exclude<TReportPeriodType, 'ANNUALLY'>, string> = {
  MONTHLY: 'Month',
  QUARTERLY: 'Quarter',
  HALF_YEARLY: 'Half',
};

export function ReportPeriodModal({ kind, role, onClose, today = dayjs().format('YYYY-MM-DD') }: ReportPeriodModalProps) {
  const small = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={kind !== null}
      onClose={onClose}
      title={kind ? REPORT_TITLES[kind] : ''}
      closeOnClickOutside={false}
      fullScreen={small}
      data-testid="report-period-modal"
    >
      {/* Keyed by the report, so each opening starts from an empty form. */}
      {kind && <ReportPeriodForm key={kind} kind={kind} role={role} today={today} onClose={onClose} />}
    </Modal>
  );
}

function ReportPeriodForm({ kind, role, today, onClose }: { kind: TReportKind; role: TUserType; today: string; onClose: () => void }) {
  const [form, setForm] = useState<TReportForm>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [organization, setOrganization] = useState<{ id: number; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const noScans = useTimedMessage(REPORT_MESSAGE_MS);
  const withOrganization = REPORT_ORGANIZATION_FILTER_ROLES.includes(role);

  const types = form.year === null ? [] : periodTypesFor(form.year, today);
  const choices = form.year !== null && form.type && form.type !== 'ANNUALLY' ? completedChoices(form.year, form.type, today) : [];
  const choiceLabels = form.type ? periodChoiceLabels(form.type) : [];

  const change = (next: TReportForm) => {
    setForm(next);
    setErrors({});
    noScans.clear();
  };

  const download = async () => {
    const checked = checkReportForm(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    noScans.clear();
    try {
      const query = reportQueryFor(checked.period, organization?.id);
      const file = await downloadCsv(REPORT_PATHS[kind], query, 0, () => undefined);
      saveBlob(file.blob, file.filename ?? reportFileName(kind, periodRange(checked.period), organization?.name));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.body.detail === REPORT_MESSAGES.noScans) {
        noScans.show(REPORT_MESSAGES.noScans);
      } else {
        // Part 3 §8: a failed report closes the modal; the reason is told (a lost session has its own dialog).
        if (!(error instanceof ApiError && error.status === 401)) notifications.show({ color: 'red', message: errorMessage(error) });
        onClose();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <Select
        label="Year"
        placeholder="Select Year"
        withAsterisk
        data={reportYears(today).map(String)}
        value={form.year === null ? null : String(form.year)}
        onChange={(v) => change({ year: v ? Number(v) : null, type: null, index: null })}
        error={errors.year}
        comboboxProps={{ withinPortal: true }}
        data-testid="report-year"
      />
      <Select
        label="Period"
        placeholder="Select date range"
        withAsterisk
        disabled={form.year === null}
        data={types.map((t) => ({ value: t, label: REPORT_PERIOD_LABELS[t] }))}
        value={form.type}
        onChange={(v) => change({ ...form, type: (v as TReportPeriodType | null) ?? null, index: null })}
        error={errors.type}
        comboboxProps={{ withinPortal: true }}
        data-testid="report-period-type"
      />
      {form.type && form.type !== 'ANNUALLY' && (
        <Select
          label={CHOICE_LABEL[form.type]}
          placeholder={`Select ${CHOICE_LABEL[form.type].toLowerCase()}`}
          withAsterisk
          data={choices.map((i) => ({ value: String(i), label: choiceLabels[i]! }))}
          value={form.index === null ? null : String(form.index)}
          onChange={(v) => change({ ...form, index: v === null ? null : Number(v) })}
          error={errors.index}
          comboboxProps={{ withinPortal: true }}
          data-testid="report-period-choice"
        />
      )}
      {withOrganization && (
        <OrganizationPicker
          value={organization?.id ?? null}
          valueLabel={organization?.name}
          withAsterisk={false}
          onChange={(id, picked) => {
            setOrganization(id !== null && picked ? { id, name: picked.name } : null);
            noScans.clear();
          }}
          testId="report-organization"
        />
      )}
      {noScans.message && (
        <Alert color="yellow" role="status" data-testid="report-no-scans">
          {noScans.message}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          leftSection={<IconDownload size={16} />}
          loading={busy}
          onClick={() => void download()}
          data-testid="report-download"
        >
          Download report
        </Button>
      </Group>
    </Stack>
  );
}
