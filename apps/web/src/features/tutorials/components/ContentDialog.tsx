// The content form (part 3 §2, §5 Content): title, primary text, order and the video path field, which shows the
// prefix assets/tutorials/tutorial_module_{module order}/ and the .mp4 suffix around the name (the forbidden
// characters refused with 'Invalid characters are not allowed.'; an empty name saves no path). Read-only → Edit →
// Update; Create for a new item; 'Unauthorized access' with 'No content.' on a 404.
import { useEffect, useState } from 'react';
import { Loader, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CONTENT_VIDEO_SUFFIX,
  TUTORIAL_MESSAGES,
  ZContentInput,
  Z_ORDER_MAX,
  contentVideoName,
  contentVideoPrefix,
  type TContent,
} from '@sc/shared/tutorials';
import { errorMessage } from '../../../api/client.ts';
import { NumberField } from '../../../components/NumberField.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { useContent, useSaveContent } from '../tutorials.api.ts';
import { firstErrorInto, zodErrors, type FieldErrors } from './formErrors.ts';
import { FormAlert, FormFooter, UnauthorizedAccess, isNotFound, useModalMode, useSaveErrors } from './TutorialForm.tsx';
import { StackedModal } from './StackedModal.tsx';

type ContentDialogProps = {
  contentId: number | undefined;
  module: { id: number; z_order: number };
  nextOrder: number;
  onClose: () => void;
};

export function ContentDialog({ contentId, module, nextOrder, onClose }: ContentDialogProps) {
  return (
    <StackedModal
      opened={contentId !== undefined}
      onClose={onClose}
      title={contentId ? 'Content details' : 'Create Content'}
      size="lg"
      data-testid="content-dialog"
    >
      {contentId !== undefined && <ContentForm id={contentId} module={module} nextOrder={nextOrder} onClose={onClose} />}
    </StackedModal>
  );
}

type Values = { title: string; primary_text: string; z_order: number | string; name: string };
const valuesOf = (c: TContent | undefined, nextOrder: number): Values => ({
  title: c?.title ?? '',
  primary_text: c?.primary_text ?? '',
  z_order: c?.z_order ?? nextOrder,
  name: contentVideoName(c?.primary_image),
});

function ContentForm({ id, module, nextOrder, onClose }: { id: number } & Omit<ContentDialogProps, 'contentId'>) {
  const isNew = id === 0;
  const content = useContent(isNew ? undefined : id);
  const { editing, setEditing } = useModalMode(isNew);
  const [values, setValues] = useState<Values>(() => valuesOf(undefined, nextOrder));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveContent();
  const saveErrors = useSaveErrors();
  const phone = usePhoneLayout();

  useEffect(() => {
    if (content.data) setValues(valuesOf(content.data, nextOrder));
  }, [content.data, nextOrder]);

  if (!isNew && content.isPending) return <Loader size="sm" />;
  if (!isNew && content.error) {
    return isNotFound(content.error) ? (
      <UnauthorizedAccess what={TUTORIAL_MESSAGES.noContent} />
    ) : (
      <FormAlert>{errorMessage(content.error)}</FormAlert>
    );
  }

  const moduleOrder = content.data?.module_data.z_order ?? module.z_order;
  const prefix = contentVideoPrefix(moduleOrder);
  const set = (field: keyof Values, value: string | number) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async () => {
    const input = {
      title: values.title,
      primary_text: values.primary_text,
      z_order: values.z_order === '' ? undefined : Number(values.z_order),
      primary_image: values.name.trim() || null,
      app_version: content.data?.app_version ?? null,
      module: module.id,
      status: content.data?.status ?? 'PUBLISHED',
      localize: content.data?.localize ?? {},
    };
    const parsed = ZContentInput.safeParse(input);
    if (!parsed.success) {
      const found = zodErrors(parsed.error);
      setErrors(found);
      firstErrorInto(found);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: isNew ? undefined : id, input });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose();
    } catch (error) {
      saveErrors.fail(error);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        label="Title"
        withAsterisk
        readOnly={!editing}
        value={values.title}
        onChange={(e) => set('title', e.currentTarget.value)}
        error={errors.title}
        data-field="title"
        data-testid="content-title"
      />
      <Textarea
        label="Primary text"
        autosize
        minRows={3}
        readOnly={!editing}
        value={values.primary_text}
        onChange={(e) => set('primary_text', e.currentTarget.value)}
        error={errors.primary_text}
        data-field="primary_text"
        data-testid="content-primary_text"
      />
      <NumberField
        label="Order"
        withAsterisk
        min={0}
        max={Z_ORDER_MAX}
        integer
        rangeMessage={{ below: TUTORIAL_MESSAGES.zOrder, integer: TUTORIAL_MESSAGES.zOrder }}
        readOnly={!editing}
        value={values.z_order}
        onChange={(v) => set('z_order', v)}
        error={errors.z_order}
        data-field="z_order"
        data-testid="content-z_order"
      />
      <TextInput
        label="Video"
        description={
          <>
            The video's file name: no slash, backslash, comma, period, space, @, $, #, %, & or !
            {phone && (
              <Text span display="block" size="xs" ff="monospace" data-testid="content-video-prefix">
                {prefix}…{CONTENT_VIDEO_SUFFIX}
              </Text>
            )}
          </>
        }
        readOnly={!editing}
        value={values.name}
        onChange={(e) => set('name', e.currentTarget.value)}
        error={errors.primary_image}
        leftSection={
          phone ? undefined : (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="content-video-prefix">
              {prefix}
            </Text>
          )
        }
        leftSectionWidth={phone ? undefined : 230}
        rightSection={
          <Text size="xs" c="dimmed">
            {CONTENT_VIDEO_SUFFIX}
          </Text>
        }
        rightSectionWidth={44}
        data-field="primary_image"
        data-testid="content-video"
      />
      {saveErrors.view}
      <FormFooter
        isNew={isNew}
        editing={editing}
        saving={save.isPending}
        onEdit={() => setEditing(true)}
        onCancel={() => {
          setEditing(false);
          setErrors({});
          setValues(valuesOf(content.data, nextOrder));
        }}
        onSave={() => void submit()}
        testPrefix="content"
      />
    </Stack>
  );
}
