// The actions of the case dialog (issue 26): Contact attempt (method, result, note), Referral (facility, referral
// date, appointment date, note), Note, Change status (only the moves FOLLOW_UP_MOVES allows now; Closed asks the
// outcome, the site when malignant, the diagnosis date and the facility) and Correction (an entry of the timeline
// and a note; on a closed case the outcome may be restated). Checked as the API checks; its field errors show on
// their fields.
import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CONTACT_METHODS,
  CONTACT_METHOD_LABELS,
  CONTACT_RESULTS,
  CONTACT_RESULT_LABELS,
  FOLLOW_UP_ENTRY_LABELS,
  FOLLOW_UP_FACILITY_MAX,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MOVES,
  FOLLOW_UP_NOTE_MAX,
  FOLLOW_UP_OUTCOMES,
  FOLLOW_UP_OUTCOME_LABELS,
  FOLLOW_UP_SITES,
  FOLLOW_UP_SITE_LABELS,
  FOLLOW_UP_STATUS_LABELS,
  isActiveFollowUpStatus,
  type TFollowUpActionKind,
  type TFollowUpCase,
} from '@sc/shared/follow-up';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useFollowUpAction } from '../follow-up.api.ts';
import { apiFieldErrors, checkAction, localDate, type TActionValues } from './followUpForm.ts';

const KIND_LABELS: Record<TFollowUpActionKind, string> = {
  CONTACT_ATTEMPT: 'Contact attempt',
  REFERRAL: 'Referral',
  NOTE: 'Note',
  STATUS_CHANGE: 'Change status',
  CORRECTION: 'Correction',
};

const options = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k) => ({ value: k, label: labels[k] }));

/** The action kinds a case takes now: contact and referral only while it is active; a move only where one exists. */
export function offeredKinds(kase: Pick<TFollowUpCase, 'status'>): TFollowUpActionKind[] {
  const active = isActiveFollowUpStatus(kase.status);
  return [
    ...(active ? (['CONTACT_ATTEMPT', 'REFERRAL'] as const) : []),
    'NOTE',
    ...(FOLLOW_UP_MOVES[kase.status].length > 0 ? (['STATUS_CHANGE'] as const) : []),
    'CORRECTION',
  ];
}

export function FollowUpActionForm({ kase }: { kase: TFollowUpCase }) {
  const kinds = offeredKinds(kase);
  const [kind, setKind] = useState<TFollowUpActionKind>(kinds[0] ?? 'NOTE');
  const shown = kinds.includes(kind) ? kind : (kinds[0] ?? 'NOTE');
  return (
    <Stack gap="sm" data-testid="follow-up-actions">
      <SegmentedControl
        data={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
        value={shown}
        onChange={(k) => setKind(k as TFollowUpActionKind)}
        fullWidth
        orientation="horizontal"
        data-testid="follow-up-action-kind"
        styles={{ root: { flexWrap: 'wrap' } }}
      />
      {/* A new form per kind and per status, so a saved action starts the next one empty. */}
      <ActionFields key={`${shown}-${kase.status}-${kase.timeline.length}`} kase={kase} kind={shown} />
    </Stack>
  );
}

function ActionFields({ kase, kind }: { kase: TFollowUpCase; kind: TFollowUpActionKind }) {
  const save = useFollowUpAction();
  const [values, setValues] = useState<TActionValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: string) => (value: string | null) => {
    setValues((v) => ({ ...v, [field]: value ?? '' }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };
  const input = (field: string) => ({
    value: values[field] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => set(field)(e.currentTarget.value),
    error: errors[field],
    'data-testid': `follow-up-action-${field.replace(/_/g, '-')}`,
  });
  const select = (field: string) => ({
    value: values[field] || null,
    onChange: set(field),
    error: errors[field],
    'data-testid': `follow-up-action-${field.replace(/_/g, '-')}`,
    comboboxProps: { withinPortal: true },
  });
  const closing =
    (kind === 'STATUS_CHANGE' && values.status === 'CLOSED') ||
    (kind === 'CORRECTION' && kase.status === 'CLOSED');

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const opened = localDate(kase.opened, kase.organization?.timezone);
    // Fields the form no longer shows are not sent: the outcome of a move that is no longer Closed, a site after
    // the outcome stopped being malignant.
    const sent = { ...values };
    if (!closing)
      for (const field of [
        'outcome',
        'site',
        'diagnosis_date',
        ...(kind === 'STATUS_CHANGE' ? ['facility'] : []),
      ])
        delete sent[field];
    if (sent.outcome !== 'MALIGNANT') delete sent.site;
    const checked = checkAction(kind, sent, { status: kase.status, openedLocalDate: opened });
    if (!checked.action || Object.keys(checked.errors).length > 0) {
      setErrors(checked.errors);
      return;
    }
    try {
      await save.mutateAsync({ id: kase.id, action: checked.action });
      notifications.show({ color: 'teal', message: FOLLOW_UP_MESSAGES.actionSaved });
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else if (!(
        error instanceof ApiError &&
        (error.status === 401 || error.status === 403 || error.status >= 500)
      )) {
        setErrors({ non_field_errors: errorMessage(error) });
      }
    }
  };

  const note = (label = 'Note', required = false) => (
    <Textarea
      label={label}
      withAsterisk={required}
      autosize
      minRows={2}
      maxLength={FOLLOW_UP_NOTE_MAX}
      {...input('note')}
    />
  );
  const outcomeFields = (
    <>
      <Select
        label="Outcome"
        withAsterisk={kind === 'STATUS_CHANGE'}
        data={options(FOLLOW_UP_OUTCOMES, FOLLOW_UP_OUTCOME_LABELS)}
        {...select('outcome')}
      />
      {values.outcome === 'MALIGNANT' && (
        <Select
          label="Site"
          withAsterisk
          data={options(FOLLOW_UP_SITES, FOLLOW_UP_SITE_LABELS)}
          {...select('site')}
        />
      )}
      <TextInput
        type="date"
        label="Diagnosis date"
        withAsterisk={values.outcome !== 'UNKNOWN'}
        {...input('diagnosis_date')}
      />
      <TextInput label="Diagnosis facility" maxLength={FOLLOW_UP_FACILITY_MAX} {...input('facility')} />
    </>
  );

  const otherErrors = Object.entries(errors).filter(([field]) => !FIELDS.has(field));
  return (
    <form onSubmit={submit} noValidate data-testid={`follow-up-form-${kind.toLowerCase()}`}>
      <Stack gap="sm">
        {otherErrors.length > 0 && (
          <Alert color="red" variant="light" data-testid="follow-up-form-error">
            {otherErrors.map(([, message]) => message).join(' ')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {kind === 'CONTACT_ATTEMPT' && (
            <>
              <Select
                label="Method"
                withAsterisk
                data={options(CONTACT_METHODS, CONTACT_METHOD_LABELS)}
                {...select('method')}
              />
              <Select
                label="Result"
                withAsterisk
                data={options(CONTACT_RESULTS, CONTACT_RESULT_LABELS)}
                {...select('result')}
              />
            </>
          )}
          {kind === 'REFERRAL' && (
            <>
              <TextInput
                label="Facility"
                withAsterisk
                maxLength={FOLLOW_UP_FACILITY_MAX}
                {...input('facility')}
              />
              <TextInput type="date" label="Referral date" withAsterisk {...input('referral_date')} />
              <TextInput type="date" label="Appointment date" {...input('appointment_date')} />
            </>
          )}
          {kind === 'STATUS_CHANGE' && (
            <Select
              label="New status"
              withAsterisk
              data={options(FOLLOW_UP_MOVES[kase.status], FOLLOW_UP_STATUS_LABELS)}
              {...select('status')}
            />
          )}
          {kind === 'CORRECTION' && (
            <Select
              label="Entry corrected"
              withAsterisk
              data={kase.timeline.map((e) => ({
                value: String(e.id),
                label: `#${e.id} ${FOLLOW_UP_ENTRY_LABELS[e.kind]}`,
              }))}
              {...select('corrects')}
            />
          )}
          {closing && outcomeFields}
        </SimpleGrid>
        {note(
          kind === 'NOTE' || kind === 'CORRECTION' ? 'Note' : 'Note (optional)',
          kind === 'NOTE' || kind === 'CORRECTION',
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="follow-up-action-submit">
            Save {KIND_LABELS[kind].toLowerCase()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const FIELDS = new Set([
  'method',
  'result',
  'note',
  'facility',
  'referral_date',
  'appointment_date',
  'status',
  'outcome',
  'site',
  'diagnosis_date',
  'corrects',
]);
