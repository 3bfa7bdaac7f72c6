// The module form (part 3 §2 Modal forms, §3 Module, §5 Module): name, order, pass text, the retake texts and
// the retake question percentage 0–100. Read-only → Edit → Update; Create for a new module. Validated with the
// API's own schema; invalid fields are highlighted, the first is scrolled into view, and the errors clear after
// 5 s (part 3 §5 Module).
import { useEffect, useState } from 'react';
import { Loader, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ERROR_BANNER_MS } from '@sc/shared/constants';
import { TUTORIAL_MESSAGES, TUTORIAL_PERCENTAGE_MAX, ZModuleInput, Z_ORDER_MAX, type TModule } from '@sc/shared/tutorials';
import { errorMessage } from '../../../api/client.ts';
import { NumberField } from '../../../components/NumberField.tsx';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';
import { useModule, useSaveModule } from '../tutorials.api.ts';
import { FormAlert, FormFooter, UnauthorizedAccess, isNotFound, useModalMode, useSaveErrors } from './TutorialForm.tsx';
import { firstErrorInto, zodErrors, type FieldErrors } from './formErrors.ts';
import { StackedModal } from './StackedModal.tsx';

type ModuleDialogProps = {
  /** undefined: closed; 0: a new module; otherwise the module's id. */
  moduleId: number | undefined;
  /** The order a new module gets (after the last). */
  nextOrder?: number;
  onClose: (saved: boolean) => void;
};

export function ModuleDialog({ moduleId, nextOrder = 1, onClose }: ModuleDialogProps) {
  return (
    <StackedModal
      opened={moduleId !== undefined}
      onClose={() => onClose(false)}
      title={moduleId ? 'Module details' : 'Create Module'}
      size="lg"
      data-testid="module-dialog"
    >
      {moduleId !== undefined && <ModuleForm id={moduleId} nextOrder={nextOrder} onClose={onClose} />}
    </StackedModal>
  );
}

type Values = {
  name: string;
  z_order: number | string;
  pass_text: string;
  re_take_question_percentage: number | string;
  re_take_question_text: string;
  re_take_module_text: string;
  re_take_module_again_text: string;
};

const NO_ERRORS: FieldErrors = {};

const valuesOf = (m: TModule | undefined, nextOrder: number): Values => ({
  name: m?.name ?? '',
  z_order: m?.z_order ?? nextOrder,
  pass_text: m?.pass_text ?? '',
  re_take_question_percentage: m?.re_take_question_percentage ?? '',
  re_take_question_text: m?.re_take_question_text ?? '',
  re_take_module_text: m?.re_take_module_text ?? '',
  re_take_module_again_text: m?.re_take_module_again_text ?? '',
});

function ModuleForm({ id, nextOrder, onClose }: { id: number; nextOrder: number; onClose: (saved: boolean) => void }) {
  const isNew = id === 0;
  const module = useModule(isNew ? undefined : id);
  const { editing, setEditing } = useModalMode(isNew);
  const [values, setValues] = useState<Values>(() => valuesOf(undefined, nextOrder));
  const fieldErrors = useTimedMessage<FieldErrors>(ERROR_BANNER_MS);
  const errors = fieldErrors.message ?? NO_ERRORS;
  const save = useSaveModule();
  const saveErrors = useSaveErrors();

  useEffect(() => {
    if (module.data) setValues(valuesOf(module.data, nextOrder));
  }, [module.data, nextOrder]);

  if (!isNew && module.isPending) return <Loader size="sm" />;
  if (!isNew && module.error) {
    return isNotFound(module.error) ? (
      <UnauthorizedAccess what={TUTORIAL_MESSAGES.noModule} />
    ) : (
      <FormAlert>{errorMessage(module.error)}</FormAlert>
    );
  }

  const set = (field: keyof Values) => (value: string | number) => setValues((v) => ({ ...v, [field]: value }));
  const text = (field: keyof Values, label: string, required = false) => ({
    label,
    withAsterisk: required,
    readOnly: !editing,
    value: String(values[field]),
    error: errors[field],
    'data-field': field,
    'data-testid': `module-${field}`,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field)(e.currentTarget.value),
  });

  const submit = async () => {
    const input = {
      name: values.name,
      z_order: values.z_order === '' ? undefined : Number(values.z_order),
      pass_text: values.pass_text,
      re_take_question_percentage: values.re_take_question_percentage === '' ? null : Number(values.re_take_question_percentage),
      re_take_question_text: values.re_take_question_text,
      re_take_module_text: values.re_take_module_text,
      re_take_module_again_text: values.re_take_module_again_text,
      // A PUT sends the full module: its translations and status stay as they are.
      status: module.data?.status ?? 'PUBLISHED',
      localize: module.data?.localize ?? {},
    };
    const parsed = ZModuleInput.safeParse(input);
    if (!parsed.success) {
      const found = zodErrors(parsed.error);
      fieldErrors.show(found);
      firstErrorInto(found);
      return;
    }
    fieldErrors.clear();
    try {
      const saved = await save.mutateAsync({ id: isNew ? undefined : id, input });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      saveErrors.fail(error);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput {...text('name', 'Name', true)} />
      <NumberField
        label="Order"
        withAsterisk
        readOnly={!editing}
        min={0}
        max={Z_ORDER_MAX}
        integer
        rangeMessage={{ below: TUTORIAL_MESSAGES.zOrder, integer: TUTORIAL_MESSAGES.zOrder }}
        value={values.z_order}
        onChange={set('z_order')}
        error={errors.z_order}
        data-field="z_order"
        data-testid="module-z_order"
      />
      <TextInput {...text('pass_text', 'Pass text')} />
      <NumberField
        label="Retake question percentage"
        readOnly={!editing}
        min={0}
        max={TUTORIAL_PERCENTAGE_MAX}
        integer
        rangeMessage={TUTORIAL_MESSAGES.percentage}
        suffix="%"
        value={values.re_take_question_percentage}
        onChange={set('re_take_question_percentage')}
        error={errors.re_take_question_percentage}
        data-field="re_take_question_percentage"
        data-testid="module-re_take_question_percentage"
      />
      <TextInput {...text('re_take_question_text', 'Retake question text')} />
      <TextInput {...text('re_take_module_text', 'Retake module text')} />
      <TextInput {...text('re_take_module_again_text', 'Retake module again text')} />
      {module.data?.icon && <TextInput label="Icon" value={module.data.icon} readOnly />}
      {saveErrors.view}
      <FormFooter
        isNew={isNew}
        editing={editing}
        saving={save.isPending}
        onEdit={() => setEditing(true)}
        onCancel={() => {
          setEditing(false);
          fieldErrors.clear();
          setValues(valuesOf(module.data, nextOrder));
        }}
        onSave={() => void submit()}
        testPrefix="module"
      />
    </Stack>
  );
}
