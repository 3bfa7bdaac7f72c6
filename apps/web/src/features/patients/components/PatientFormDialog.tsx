// The patient dialog (part 2 §2.6, §5, §6, §8): titled Create, Edit or Details; read-only when opened from a scan
// (`PatientViewDialog`). §5 rules with the errors on their fields after a submit: names required, age 12–120
// computed from the date of birth (1900-01-01 .. today − 12 years), e-mail format, gender (default FEMALE), mobile
// valid for the chosen country (IN by default, always sent), organization mandatory outside an organization,
// technician mandatory on create (valid TECHNICIANs of the organization). The technician of an existing patient is
// editable by ADMIN, SUB_ADMIN, DISTRIBUTOR_ADMIN and MANAGER only. Server errors are listed under the form for 5 s.
import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Loader, Modal, Select, SimpleGrid, Stack, Table, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { DEFAULT_COUNTRY_CODE, GENDERS, PATIENT_MAX_AGE, PATIENT_MIN_AGE } from '@sc/shared/constants';
import { canFollowUp } from '@sc/shared/follow-up';
import { GENDER_LABELS } from '@sc/shared/labels';
import { nationalPartOf } from '@sc/shared/phone';
import {
  PATIENT_MESSAGES,
  ZPatientCreate,
  ageOn,
  birthDateProblem,
  canPatient,
  checkPatientRecord,
  earliestBirthDate,
  hasFixedPatientOrganization,
  latestBirthDate,
  patientName,
  todayIso,
  type TPatient,
  type TPatientCreateInput,
} from '@sc/shared/patients';
import type { TUserType } from '@sc/shared/roles';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { CountryDialCodePicker } from '../../../components/CountryDialCodePicker.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { NumberField } from '../../../components/NumberField.tsx';
import { OrganizationPicker } from '../../../components/OrganizationPicker.tsx';
import { TechnicianPicker } from '../../../components/TechnicianPicker.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { patientRecordLinks } from '../../../components/list/PatientFilter.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { FollowUpCasesLink } from '../../follow-up/components/FollowUpCasesLink.tsx';
import { useReferences } from '../../organizations/organizations.api.ts';
import { usePatient, useSavePatient } from '../patients.api.ts';
import { PatientConsentFields } from './PatientConsentFields.tsx';
import { RecordHistoryButton } from '../../audit/components/RecordHistory.tsx';

export type PatientFormMode = 'create' | 'details' | 'edit';
export type PatientFormView = { mode: PatientFormMode; patientId?: number };

const TITLES: Record<PatientFormMode, string> = { create: 'Create', details: 'Details', edit: 'Edit' };

type PatientFormDialogProps = {
  opened: boolean;
  view: PatientFormView;
  onViewChange: (view: PatientFormView) => void;
  /** The organization the dialog is opened in (its Patients tab): fixed, not asked for. */
  organization?: { id: number; name: string };
  /** Opened from a scan: details only, no Edit. */
  readOnly?: boolean;
  onClose: (saved: boolean) => void;
  /** The details' Transfer button (by role). */
  onTransfer?: (patient: TPatient) => void;
};

export function PatientFormDialog({ opened, view, onViewChange, organization, readOnly = false, onClose, onTransfer }: PatientFormDialogProps) {
  const mode: PatientFormMode = readOnly ? 'details' : view.mode;
  return (
    <Modal opened={opened} onClose={() => onClose(false)} title={TITLES[mode]} size="lg" data-testid="patient-form-dialog">
      {opened && (
        <PatientFormBody
          key={`${mode}-${view.patientId ?? 'new'}`}
          mode={mode}
          patientId={view.patientId}
          organization={organization}
          readOnly={readOnly}
          onEdit={() => onViewChange({ mode: 'edit', patientId: view.patientId })}
          onClose={onClose}
          onTransfer={onTransfer}
        />
      )}
    </Modal>
  );
}

/** The read-only patient dialog the scan view opens (part 2 §2.6). */
export function PatientViewDialog({ opened, patientId, onClose }: { opened: boolean; patientId: number | undefined; onClose: () => void }) {
  return (
    <PatientFormDialog
      opened={opened}
      view={{ mode: 'details', patientId }}
      onViewChange={() => undefined}
      readOnly
      onClose={() => onClose()}
    />
  );
}

type BodyProps = {
  mode: PatientFormMode;
  patientId?: number;
  organization?: { id: number; name: string };
  readOnly: boolean;
  onEdit: () => void;
  onClose: (saved: boolean) => void;
  onTransfer?: (patient: TPatient) => void;
};

function PatientFormBody({ mode, patientId, organization, readOnly, onEdit, onClose, onTransfer }: BodyProps) {
  const role = useSessionUser().user_type;
  const patient = usePatient(mode === 'create' ? undefined : patientId);
  if (mode !== 'create' && patient.isPending) return <Loader size="sm" data-testid="patient-form-loading" />;
  if (mode !== 'create' && !patient.data) {
    return <Alert color="red">{patient.error ? errorMessage(patient.error) : 'Not found.'}</Alert>;
  }
  if (mode === 'details' && patient.data) {
    return (
      <PatientDetails
        patient={patient.data}
        canEdit={!readOnly && canPatient(role, 'patient.edit')}
        canTransfer={!readOnly && !!onTransfer && canPatient(role, 'patient.transfer')}
        onEdit={onEdit}
        onTransfer={() => onTransfer?.(patient.data)}
        onClose={() => onClose(false)}
        role={role}
      />
    );
  }
  return <PatientForm role={role} patient={mode === 'edit' ? patient.data : undefined} organization={organization} onClose={onClose} />;
}

function PatientDetails({
  patient,
  canEdit,
  canTransfer,
  onEdit,
  onTransfer,
  onClose,
  role,
}: {
  patient: TPatient;
  role: TUserType;
  canEdit: boolean;
  canTransfer: boolean;
  onEdit: () => void;
  onTransfer: () => void;
  onClose: () => void;
}) {
  const technician = patient.technician_data
    ? `${patient.technician_data.first_name} ${patient.technician_data.last_name}`.trim() || patient.technician_data.username
    : '—';
  const rows: [string, ReactNode][] = [
    ['ID', patient.id],
    ['Name', patientName(patient)],
    ['Age', patient.age ?? '—'],
    ['Date of birth', patient.date_of_birth ?? '—'],
    ['Gender', GENDER_LABELS[patient.gender]],
    ['Mobile', patient.mobile ?? '—'],
    ['Email', patient.email ?? '—'],
    ['Clinic patient ID', patient.clinic_patient_id ?? '—'],
    ['Physician', patient.physician_name ?? '—'],
    ['Physician email', patient.physician_email ?? '—'],
    ['Reference', patient.reference_name ?? '—'],
    ['Organization', patient.organization_data?.name ?? 'Unassigned'],
    ['Technician', technician],
    ['Reminder SMS consent', patient.reminder_consent ? 'Yes' : 'No'],
    ['Consent language', patient.consent_language ?? '—'],
    ['Created', <ListDate key="c" value={patient.created} />],
    ['Synced on', patient.synced ? <ListDate key="s" value={patient.synced} /> : '—'],
  ];
  // Issue 23.10: from the patient to their scans and exams, each list the role may open filtered to them. The link
  // closes the dialog: it may lead to the list the dialog was opened from.
  const records = patientRecordLinks(role, { id: patient.id, name: patientName(patient) });
  if (records.length > 0) {
    rows.push([
      'Records',
      <Group key="r" gap="md" data-testid="patient-records">
        {records.map((link) => (
          <Anchor key={link.key} component={Link} to={link.to} size="sm" onClick={onClose} data-testid={`patient-records-${link.key}`}>
            {link.label}
          </Anchor>
        ))}
      </Group>,
    ]);
  }
  // Issue 26: the patient's follow-up cases, each opening the case dialog (follow-up roles only).
  if (canFollowUp(role)) rows.push(['Follow-up', <FollowUpCasesLink key="f" filter={{ patient: patient.id }} />]);
  return (
    <Stack gap="md" data-testid="patient-details">
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={150} fw={500} c="dimmed">
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
        <RecordHistoryButton targetType="patient" targetId={patient.id} />
        {canTransfer && (
          <Button variant="light" onClick={onTransfer} data-testid="patient-transfer-open">
            Transfer
          </Button>
        )}
        {canEdit && (
          <Button onClick={onEdit} data-testid="patient-edit">
            Edit
          </Button>
        )}
      </Group>
    </Stack>
  );
}

type FormValues = {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  age: number | '';
  gender: (typeof GENDERS)[number];
  email: string;
  mobile_country_code: string;
  mobile: string;
  clinic_patient_id: string;
  physician_name: string;
  physician_email: string;
  reference: number | null;
  organization: number | null;
  technician: number | null;
  reminder_consent: boolean;
  consent_language: string | null;
};

const valuesOf = (p: TPatient | undefined): FormValues => ({
  first_name: p?.first_name ?? '',
  last_name: p?.last_name ?? '',
  date_of_birth: p?.date_of_birth ?? '',
  age: p?.age ?? '',
  gender: p?.gender ?? 'FEMALE',
  email: p?.email ?? '',
  mobile_country_code: p?.mobile_country_code ?? DEFAULT_COUNTRY_CODE,
  mobile: nationalPartOf(p?.mobile),
  clinic_patient_id: p?.clinic_patient_id ?? '',
  physician_name: p?.physician_name ?? '',
  physician_email: p?.physician_email ?? '',
  reference: p?.reference ?? null,
  organization: p?.organization ?? null,
  technician: p?.technician ?? null,
  reminder_consent: p?.reminder_consent ?? false,
  consent_language: p?.consent_language ?? null,
});

/** The body the API receives ('' sent as null; the age only without a date of birth). */
function bodyOf(v: FormValues, organizationId: number | null): TPatientCreateInput {
  return {
    first_name: v.first_name,
    last_name: v.last_name,
    date_of_birth: v.date_of_birth || null,
    age: v.date_of_birth ? null : v.age === '' ? null : v.age,
    gender: v.gender,
    email: v.email || null,
    mobile: v.mobile || null,
    mobile_country_code: v.mobile_country_code,
    clinic_patient_id: v.clinic_patient_id || null,
    physician_name: v.physician_name || null,
    physician_email: v.physician_email || null,
    reference: v.reference,
    organization: organizationId,
    technician: v.technician,
    reminder_consent: v.reminder_consent,
    consent_language: v.consent_language,
  };
}

const isFullDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

type PatientFormProps = {
  role: TUserType;
  patient?: TPatient;
  organization?: { id: number; name: string };
  onClose: (saved: boolean) => void;
};

function PatientForm({ role, patient, organization, onClose }: PatientFormProps) {
  const sessionUser = useSessionUser();
  const save = useSavePatient();
  const errorArea = useErrorArea();
  const [values, setValues] = useState<FormValues>(() => valuesOf(patient));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const today = todayIso();
  const creating = patient === undefined;
  const ownOrganization = hasFixedPatientOrganization(role);
  // The organization: the patient's, the page's, an ORG_ADMIN's own, or the one chosen here.
  const fixedOrganization = patient?.organization_data ?? organization ?? (ownOrganization ? sessionUser.organization_data : null);
  const organizationId = fixedOrganization?.id ?? values.organization;
  const technicianEditable = creating || canPatient(role, 'patient.editTechnician');
  const references = useReferences({ organization: organizationId ?? undefined, limit: 100 }, { enabled: organizationId !== null });
  const referenceOptions = (references.data?.results ?? [])
    .filter((r) => r.is_active || r.id === values.reference)
    .map((r) => ({ value: String(r.id), label: r.name }));

  const validate = (v: FormValues): Record<string, string> => {
    const found: Record<string, string> = {};
    const parsed = ZPatientCreate.safeParse(bodyOf(v, organizationId));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'non_field_errors');
        if (field === 'technician' && !creating) continue;
        found[field] ??= issue.message;
      }
    }
    // The schema's cross-field rules do not run while a field of its own fails: the same rules, asked directly.
    const body = bodyOf(v, organizationId);
    const cross = checkPatientRecord({
      age: body.age,
      date_of_birth: body.date_of_birth,
      mobile: body.mobile,
      mobile_country_code: body.mobile_country_code ?? DEFAULT_COUNTRY_CODE,
    });
    if (!cross.ok) for (const issue of cross.issues) found[issue.path] ??= issue.message;
    if (creating && v.technician === null) found.technician ??= PATIENT_MESSAGES.technicianRequired;
    if (creating && organizationId === null) found.organization = PATIENT_MESSAGES.organizationRequired;
    return found;
  };

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((current) => {
      const next = { ...current, [key]: value };
      // Part 2 §5: the age is computed from the date of birth — only from one in range: a future date is an error
      // on the date field (shown at once, below), never an age (issue 23.4: it used to fill age 4).
      if (key === 'date_of_birth' && typeof value === 'string' && isFullDate(value)) {
        next.age = birthDateProblem(value, today) ? '' : ageOn(value, today);
      }
      if (key === 'organization') {
        next.technician = null;
        next.reference = null;
      }
      if (submitted) setErrors(validate(next));
      return next;
    });
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = bodyOf(values, organizationId);
    try {
      const saved = patient
        ? await save.mutateAsync({
            id: patient.id,
            patch: {
              first_name: body.first_name,
              last_name: body.last_name,
              date_of_birth: body.date_of_birth,
              age: body.age,
              gender: body.gender,
              email: body.email,
              mobile: body.mobile,
              mobile_country_code: body.mobile_country_code,
              clinic_patient_id: body.clinic_patient_id,
              physician_name: body.physician_name,
              physician_email: body.physician_email,
              reference: body.reference,
              ...(technicianEditable && values.technician !== null && values.technician !== patient.technician
                ? { technician: values.technician }
                : {}),
            },
          })
        : await save.mutateAsync({ input: body });
      notifications.show({ color: 'teal', message: saved.detail || (patient ? PATIENT_MESSAGES.updated : PATIENT_MESSAGES.created) });
      onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      const list = error instanceof ApiError ? fieldErrorList(error.body) : [];
      errorArea.show(list.length ? list : [{ title: 'Error', text: errorMessage(error) }]);
    }
  };

  // A complete date of birth out of range says so as soon as it is chosen, not only after a submit.
  const dobProblem = isFullDate(values.date_of_birth) ? birthDateProblem(values.date_of_birth, today) : null;
  const err = (field: keyof FormValues) => errors[field] ?? (field === 'date_of_birth' ? (dobProblem ?? undefined) : undefined);
  const dobMin = earliestBirthDate(today);
  const dobMax = latestBirthDate(today);

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="patient-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="First name" withAsterisk value={values.first_name} onChange={(e) => set('first_name', e.currentTarget.value)} error={err('first_name')} data-autofocus data-testid="patient-first-name" />
          <TextInput label="Last name" withAsterisk value={values.last_name} onChange={(e) => set('last_name', e.currentTarget.value)} error={err('last_name')} data-testid="patient-last-name" />
          <TextInput
            label="Date of birth"
            type="date"
            min={dobMin}
            max={dobMax}
            value={values.date_of_birth}
            onChange={(e) => set('date_of_birth', e.currentTarget.value)}
            error={err('date_of_birth')}
            data-testid="patient-dob"
          />
          <NumberField
            label="Age"
            withAsterisk
            min={PATIENT_MIN_AGE}
            max={PATIENT_MAX_AGE}
            integer
            rangeMessage={PATIENT_MESSAGES.age}
            readOnly={values.date_of_birth !== ''}
            description={values.date_of_birth && !dobProblem ? 'Computed from the date of birth' : undefined}
            value={values.age}
            onChange={(v) => set('age', typeof v === 'number' ? v : v === '' ? '' : Number(v))}
            error={err('age')}
            data-testid="patient-age"
          />
          <Select
            label="Gender"
            withAsterisk
            allowDeselect={false}
            data={GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }))}
            value={values.gender}
            onChange={(v) => v && set('gender', v as FormValues['gender'])}
            error={err('gender')}
            comboboxProps={{ withinPortal: true }}
            data-testid="patient-gender"
          />
          <TextInput label="Email" type="email" value={values.email} onChange={(e) => set('email', e.currentTarget.value)} error={err('email')} data-testid="patient-email" />
          <CountryDialCodePicker
            value={values.mobile_country_code}
            onChange={(code) => code && set('mobile_country_code', code)}
            error={err('mobile_country_code')}
            comboboxProps={{ withinPortal: true }}
            data-testid="patient-country"
          />
          <PhoneInput
            label="Mobile"
            country={values.mobile_country_code}
            value={values.mobile}
            onChange={(mobile) => set('mobile', mobile)}
            error={err('mobile')}
            testId="patient-mobile"
          />
          <TextInput label="Clinic patient ID" value={values.clinic_patient_id} onChange={(e) => set('clinic_patient_id', e.currentTarget.value)} error={err('clinic_patient_id')} data-testid="patient-clinic-id" />
          <TextInput label="Physician name" value={values.physician_name} onChange={(e) => set('physician_name', e.currentTarget.value)} error={err('physician_name')} data-testid="patient-physician" />
          <TextInput label="Physician email" type="email" value={values.physician_email} onChange={(e) => set('physician_email', e.currentTarget.value)} error={err('physician_email')} data-testid="patient-physician-email" />
          <Select
            label="Reference"
            placeholder={organizationId === null ? 'Choose an organization first' : 'No reference'}
            clearable
            disabled={organizationId === null}
            data={referenceOptions}
            value={values.reference === null ? null : String(values.reference)}
            onChange={(v) => set('reference', v ? Number(v) : null)}
            error={err('reference')}
            comboboxProps={{ withinPortal: true }}
            data-testid="patient-reference"
          />
          {fixedOrganization ? (
            <TextInput label="Organization" value={fixedOrganization.name} readOnly data-testid="patient-organization-fixed" />
          ) : (
            <OrganizationPicker
              value={values.organization}
              onChange={(id) => set('organization', id)}
              error={err('organization')}
              testId="patient-organization"
            />
          )}
          <TechnicianPicker
            organizationId={organizationId}
            value={values.technician}
            valueLabel={
              patient?.technician_data
                ? `${patient.technician_data.first_name} ${patient.technician_data.last_name} (${patient.technician_data.username})`.trim()
                : undefined
            }
            onChange={(id) => set('technician', id)}
            withAsterisk={creating}
            readOnly={!technicianEditable}
            error={err('technician')}
            testId="patient-technician"
          />
          <PatientConsentFields
            consent={values.reminder_consent}
            language={values.consent_language}
            onConsentChange={(consent) => set('reminder_consent', consent)}
            onLanguageChange={(language) => set('consent_language', language)}
            errors={{ reminder_consent: err('reminder_consent'), consent_language: err('consent_language') }}
          />
        </SimpleGrid>
        <FormErrorArea errors={errorArea.errors} testId="patient-form-errors" />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="patient-submit">
            {creating ? 'Create' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
