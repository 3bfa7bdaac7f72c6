// The user form (part 2 §2.3, §5, §6): create, or edit an existing user with mobile, e-mail and country locked.
// Validated with the shared schema for this actor (userInputSchemaFor / userUpdateSchemaFor: one of e-mail or mobile,
// the e-mail pattern, a mobile valid for the country, 'Select an organization' for MANAGER and DISTRIBUTOR_ADMIN
// actors); errors show on the fields after a submit attempt. The user types offered are the shared
// `allowedUserTypes` for the actor and the chosen organization; the trainer and demo flags follow §6.
import { useMemo, useState } from 'react';
import { Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';
import { nationalPartOf } from '@sc/shared/phone';
import { ROLE_LABELS, type TUserType } from '@sc/shared/roles';
import {
  USER_MESSAGES,
  organizationRequiredFor,
  userInputSchemaFor,
  userUpdateSchemaFor,
  type TUserInputBody,
  type TUserUpdateBody,
} from '@sc/shared/user-input';
import {
  allowedUserTypes,
  canSetTrainerFlags,
  canUser,
  defaultUserType,
  showsTrainerFlags,
  userTypeTakesOrganization,
  type TUserOrganizationFacts,
} from '@sc/shared/user-permissions';
import type { TUserDetail } from '@sc/shared/users';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { CountryDialCodePicker } from '../../../components/CountryDialCodePicker.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { OrganizationPicker, type PickedOrganization } from '../../../components/OrganizationPicker.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { useSaveUser } from '../users.api.ts';

export type UserFormValues = {
  first_name: string;
  last_name: string;
  mobile_country_code: string;
  mobile: string;
  email: string;
  user_type: TUserType;
  organization: number | null;
  is_trainer: boolean;
  is_available_demo: boolean;
  is_update_scan_organization: boolean;
};

const FORM_FIELDS = new Set<string>([
  'first_name',
  'last_name',
  'mobile_country_code',
  'mobile',
  'email',
  'user_type',
  'organization',
  'is_trainer',
  'is_available_demo',
]);

type UserFormProps = {
  /** The user being edited; none to create. */
  user?: TUserDetail;
  /** Create inside an organization page: the user starts in it. */
  organization?: PickedOrganization;
  onClose: (saved: boolean) => void;
};

export function UserForm({ user, organization, onClose }: UserFormProps) {
  const session = useSessionUser();
  const role = session.user_type;
  const editing = user !== undefined;
  const save = useSaveUser();
  const errorArea = useErrorArea();

  // ORG_ADMIN creates in its own organization only (architecture §7b): the organization is fixed to it.
  const ownOrganization: PickedOrganization | undefined =
    role === 'ORG_ADMIN' && session.organization_data ? session.organization_data : undefined;
  const startOrganization: PickedOrganization | undefined = editing
    ? (user.organization_data ?? undefined)
    : (organization ?? ownOrganization);
  const [orgFacts, setOrgFacts] = useState<TUserOrganizationFacts>(startOrganization ?? null);

  const offeredTypes = useMemo(() => {
    const allowed = allowedUserTypes(role, orgFacts);
    // An existing user keeps its own type among the choices, even one this actor may not give.
    return editing && !allowed.includes(user.user_type) ? [user.user_type, ...allowed] : allowed;
  }, [role, orgFacts, editing, user]);

  const form = useForm<UserFormValues>({
    initialValues: {
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      mobile_country_code: user?.mobile_country_code ?? DEFAULT_COUNTRY_CODE,
      mobile: nationalPartOf(user?.mobile),
      email: user?.email ?? '',
      user_type: user?.user_type ?? defaultUserType(allowedUserTypes(role, startOrganization ?? null)) ?? 'TECHNICIAN',
      organization: startOrganization?.id ?? null,
      is_trainer: user?.is_trainer ?? false,
      is_available_demo: user?.is_available_demo ?? false,
      is_update_scan_organization: false,
    },
    validate: schemaResolver(editing ? userUpdateSchemaFor(role) : userInputSchemaFor(role), { sync: true }),
  });
  const values = form.getValues();
  const takesOrganization = userTypeTakesOrganization(values.user_type);
  const flagsShown = showsTrainerFlags(values.user_type);
  const flagsEditable = canSetTrainerFlags(role);
  // Changing an existing user's organization is an assign, unassign or transfer (part 2 §6 "User list buttons").
  const organizationLocked = ownOrganization !== undefined || (editing && !canUser(role, 'user.assign'));
  const movesOrganization =
    editing && user.organization !== null && values.organization !== null && values.organization !== user.organization;

  const chooseOrganization = (id: number | null, picked: PickedOrganization | null) => {
    form.setFieldValue('organization', id);
    const facts = picked ?? null;
    setOrgFacts(facts);
    // A type the new organization does not allow (Distributor outside a distributor) goes back to the default.
    const allowed = allowedUserTypes(role, facts);
    if (!allowed.includes(form.getValues().user_type) && !(editing && form.getValues().user_type === user.user_type)) {
      const fallback = defaultUserType(allowed);
      if (fallback) form.setFieldValue('user_type', fallback);
    }
  };

  const submit = async (v: UserFormValues) => {
    errorArea.clear();
    const organizationId = userTypeTakesOrganization(v.user_type) ? v.organization : null;
    const flags = flagsEditable && showsTrainerFlags(v.user_type) ? { is_trainer: v.is_trainer, is_available_demo: v.is_available_demo } : {};
    try {
      const saved = editing
        ? await save.mutateAsync({
            id: user.id,
            input: {
              first_name: v.first_name,
              last_name: v.last_name,
              user_type: v.user_type,
              // Locked fields go back as stored: the API refuses any change to them.
              email: user.email,
              mobile: user.mobile,
              mobile_country_code: user.mobile_country_code ?? undefined,
              organization: organizationId,
              ...flags,
              ...(movesOrganization ? { is_update_scan_organization: v.is_update_scan_organization } : {}),
            } satisfies TUserUpdateBody,
          })
        : await save.mutateAsync({
            input: {
              first_name: v.first_name,
              last_name: v.last_name,
              user_type: v.user_type,
              email: v.email.trim() || null,
              mobile: v.mobile || null,
              mobile_country_code: v.mobile_country_code,
              organization: organizationId,
              ...flags,
            } satisfies TUserInputBody,
          });
      notifications.show({ color: 'teal', message: saved.detail || (editing ? USER_MESSAGES.updated : USER_MESSAGES.created) });
      if (saved.password_link_message) {
        notifications.show({ color: 'blue', message: saved.password_link_message, autoClose: 10_000 });
      }
      onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const list = fieldErrorList(error.body);
        const onFields: Record<string, string> = {};
        for (const [field, value] of Object.entries(error.body)) {
          const text = Array.isArray(value) ? value.filter((t) => typeof t === 'string').join(' ') : typeof value === 'string' ? value : '';
          if (FORM_FIELDS.has(field) && text) onFields[field] = text;
        }
        form.setErrors(onFields);
        errorArea.show(list);
        return;
      }
      // 401, 403 and 5xx are announced by the client.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status >= 500)) return;
      errorArea.show([{ title: 'Error', text: errorMessage(error) }]);
    }
  };

  const err = (field: keyof UserFormValues) => form.errors[field] as string | undefined;

  return (
    <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate data-testid="user-form">
      <Stack gap="md">
        <FormErrorArea errors={errorArea.errors} testId="user-form-errors" />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="First name" withAsterisk data-autofocus data-testid="user-first-name" {...form.getInputProps('first_name')} />
          <TextInput label="Last name" withAsterisk data-testid="user-last-name" {...form.getInputProps('last_name')} />
          <CountryDialCodePicker
            label="Country"
            withAsterisk
            disabled={editing}
            value={values.mobile_country_code || null}
            onChange={(code) => form.setFieldValue('mobile_country_code', code ?? '')}
            error={err('mobile_country_code')}
            data-testid="user-country"
          />
          <PhoneInput
            label="Mobile number"
            disabled={editing}
            country={values.mobile_country_code}
            value={values.mobile}
            onChange={(mobile) => form.setFieldValue('mobile', mobile)}
            error={err('mobile')}
            testId="user-mobile"
          />
          <TextInput
            label="E-mail"
            type="email"
            disabled={editing}
            data-testid="user-email"
            {...form.getInputProps('email')}
          />
          <Select
            label="User type"
            withAsterisk
            allowDeselect={false}
            data={offeredTypes.map((t) => ({ value: t, label: ROLE_LABELS[t] }))}
            value={values.user_type}
            onChange={(t) => t && form.setFieldValue('user_type', t as TUserType)}
            error={err('user_type')}
            comboboxProps={{ withinPortal: true }}
            data-testid="user-type"
          />
          {takesOrganization && (
            <OrganizationPicker
              value={values.organization}
              valueLabel={startOrganization && values.organization === startOrganization.id ? startOrganization.name : undefined}
              withAsterisk={organizationRequiredFor(role)}
              readOnly={organizationLocked}
              error={err('organization')}
              onChange={chooseOrganization}
              testId="user-organization"
            />
          )}
        </SimpleGrid>
        {movesOrganization && (
          <Checkbox
            label="Also move this user's scans to the new organization"
            data-testid="user-move-scans"
            {...form.getInputProps('is_update_scan_organization', { type: 'checkbox' })}
          />
        )}
        {flagsShown && (
          <TrainerFlags
            editable={flagsEditable}
            isTrainer={values.is_trainer}
            isDemo={values.is_available_demo}
            onChange={(patch) => form.setValues(patch)}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onClose(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="user-submit">
            {editing ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type TrainerFlagsProps = {
  editable: boolean;
  isTrainer: boolean;
  isDemo: boolean;
  onChange: (patch: Partial<Pick<UserFormValues, 'is_trainer' | 'is_available_demo'>>) => void;
};

/** Part 2 §6: editable for ADMIN and SUB_ADMIN; others read 'Yes' where a flag is set. */
function TrainerFlags({ editable, isTrainer, isDemo, onChange }: TrainerFlagsProps) {
  if (!editable) {
    if (!isTrainer && !isDemo) return null;
    return (
      <Group gap="xl" data-testid="user-flags-readonly">
        {isTrainer && <Text size="sm">Trainer: Yes</Text>}
        {isDemo && <Text size="sm">Demo available: Yes</Text>}
      </Group>
    );
  }
  return (
    <Group gap="xl">
      <Checkbox
        label="Trainer"
        checked={isTrainer}
        onChange={(e) => onChange({ is_trainer: e.currentTarget.checked })}
        data-testid="user-is-trainer"
      />
      <Checkbox
        label="Demo available"
        checked={isDemo}
        onChange={(e) => onChange({ is_available_demo: e.currentTarget.checked })}
        data-testid="user-is-demo"
      />
    </Group>
  );
}
