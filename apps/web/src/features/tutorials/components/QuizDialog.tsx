// The quiz form with its options sub-list (part 3 §2, §4, §5 Quiz, §7 Quizzes and Quiz options): question,
// multi select, order and the options (text, order, correct). Deleting an option asks first; an option with an
// id is deleted on the server at once, one without only leaves the form. Create posts the quiz with its options;
// Update puts the quiz, then creates or updates every option in turn. Each saved option has its own language
// setting.
import { useEffect, useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, Loader, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLanguage, IconPlus, IconTrash } from '@tabler/icons-react';
import { TUTORIAL_MESSAGES, ZQuizCreate, Z_ORDER_MAX, type TOption, type TQuiz } from '@sc/shared/tutorials';
import { api, errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { NumberField } from '../../../components/NumberField.tsx';
import { usePhoneLayout } from '../../../components/list/usePhoneLayout.ts';
import { saveOption, useDeleteOption, useQuiz, useSaveQuiz } from '../tutorials.api.ts';
import { firstErrorInto, zodErrors, type FieldErrors } from './formErrors.ts';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { FormAlert, FormFooter, UnauthorizedAccess, isNotFound, useModalMode, useSaveErrors } from './TutorialForm.tsx';
import { StackedModal } from './StackedModal.tsx';

type QuizDialogProps = { quizId: number | undefined; moduleId: number; nextOrder: number; onClose: () => void };

export function QuizDialog({ quizId, moduleId, nextOrder, onClose }: QuizDialogProps) {
  const phone = usePhoneLayout();
  return (
    <StackedModal
      fullScreen={phone}
      opened={quizId !== undefined}
      onClose={onClose}
      title={quizId ? 'Quiz details' : 'Create Quiz'}
      // Narrower than the quiz list (xl) it opens over, so the list stays in view behind it.
      size="lg"
      data-testid="quiz-dialog"
    >
      {quizId !== undefined && <QuizForm id={quizId} moduleId={moduleId} nextOrder={nextOrder} onClose={onClose} />}
    </StackedModal>
  );
}

type OptionRow = {
  key: number;
  id?: number;
  option: string;
  z_order: number | string;
  is_correct: boolean;
  is_select_all_or_none: boolean;
  localize?: TOption['localize'];
};

let nextKey = 1;
const optionRows = (quiz: TQuiz | undefined): OptionRow[] =>
  (quiz?.options ?? []).map((o) => ({
    key: nextKey++,
    id: o.id,
    option: o.option,
    z_order: o.z_order,
    is_correct: o.is_correct,
    is_select_all_or_none: o.is_select_all_or_none,
    localize: o.localize,
  }));

function QuizForm({ id, moduleId, nextOrder, onClose }: { id: number; moduleId: number; nextOrder: number; onClose: () => void }) {
  const isNew = id === 0;
  const quiz = useQuiz(isNew ? undefined : id);
  const { editing, setEditing } = useModalMode(isNew);
  const [question, setQuestion] = useState('');
  const [multi, setMulti] = useState(false);
  const [zOrder, setZOrder] = useState<number | string>(nextOrder);
  const [options, setOptions] = useState<OptionRow[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [languageOption, setLanguageOption] = useState<OptionRow | undefined>(undefined);
  const save = useSaveQuiz();
  const deleteOption = useDeleteOption();
  const saveErrors = useSaveErrors();
  const [saving, setSaving] = useState(false);

  const reset = (q: TQuiz | undefined) => {
    setQuestion(q?.question ?? '');
    setMulti(q?.is_multi_select ?? false);
    setZOrder(q?.z_order ?? nextOrder);
    setOptions(optionRows(q));
  };
  useEffect(() => {
    if (quiz.data) reset(quiz.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the loaded quiz changes only
  }, [quiz.data]);

  if (!isNew && quiz.isPending) return <Loader size="sm" />;
  if (!isNew && quiz.error) {
    return isNotFound(quiz.error) ? <UnauthorizedAccess what={TUTORIAL_MESSAGES.noModule} /> : <FormAlert>{errorMessage(quiz.error)}</FormAlert>;
  }

  const setOption = (key: number, change: Partial<OptionRow>) =>
    setOptions((all) => all.map((o) => (o.key === key ? { ...o, ...change } : o)));

  const removeOption = async (row: OptionRow) => {
    const ok = await confirm({
      title: 'Delete option',
      message: `${TUTORIAL_MESSAGES.deleteOption} ${TUTORIAL_MESSAGES.deleteHint}`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    if (row.id) {
      try {
        const answer = await deleteOption.mutateAsync(row.id);
        notifications.show({ color: 'teal', message: answer.detail });
      } catch (error) {
        saveErrors.fail(error);
        return;
      }
    }
    setOptions((all) => all.filter((o) => o.key !== row.key));
  };

  const optionInput = (o: OptionRow) => ({
    option: o.option,
    z_order: o.z_order === '' ? undefined : Number(o.z_order),
    is_correct: o.is_correct,
    is_select_all_or_none: o.is_select_all_or_none,
  });

  const submit = async () => {
    const input = {
      question,
      is_multi_select: multi,
      z_order: zOrder === '' ? undefined : Number(zOrder),
      primary_image: quiz.data?.primary_image ?? null,
      module: moduleId,
      options: options.map(optionInput),
      localize: quiz.data?.localize ?? {},
    };
    const parsed = ZQuizCreate.safeParse(input);
    if (!parsed.success) {
      const found = zodErrors(parsed.error);
      setErrors(found);
      firstErrorInto(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      if (isNew) {
        const saved = await save.mutateAsync({ input });
        notifications.show({ color: 'teal', message: saved.detail });
      } else {
        const { options: _options, ...quizOnly } = input;
        const saved = await save.mutateAsync({ id, input: quizOnly });
        // Every option is created or updated in turn (§7).
        for (const o of options) {
          await saveOption(o.id, { ...optionInput(o), question: id, localize: o.localize ?? {} });
        }
        await quiz.refetch();
        notifications.show({ color: 'teal', message: saved.detail });
      }
      onClose();
    } catch (error) {
      saveErrors.fail(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        label="Question"
        withAsterisk
        readOnly={!editing}
        value={question}
        onChange={(e) => setQuestion(e.currentTarget.value)}
        error={errors.question}
        data-field="question"
        data-testid="quiz-question"
      />
      <Group grow align="flex-start">
        <NumberField
          label="Order"
          withAsterisk
          min={0}
          max={Z_ORDER_MAX}
          integer
          rangeMessage={{ below: TUTORIAL_MESSAGES.zOrder, integer: TUTORIAL_MESSAGES.zOrder }}
          readOnly={!editing}
          value={zOrder}
          onChange={setZOrder}
          error={errors.z_order}
          data-field="z_order"
          data-testid="quiz-z_order"
        />
        <Switch
          mt={30}
          label="Multi select"
          checked={multi}
          disabled={!editing}
          onChange={(e) => setMulti(e.currentTarget.checked)}
          data-testid="quiz-multi"
        />
      </Group>
      <Group justify="space-between" mt="xs">
        <Text fw={600}>Options</Text>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={!editing}
          onClick={() =>
            setOptions((all) => [
              ...all,
              { key: nextKey++, option: '', z_order: all.length + 1, is_correct: false, is_select_all_or_none: false },
            ])
          }
          data-testid="option-add"
        >
          Add option
        </Button>
      </Group>
      {options.length === 0 ? (
        <Text size="sm" c="dimmed">
          No options yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing={4} data-testid="option-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Option</Table.Th>
                <Table.Th w={76}>Order</Table.Th>
                <Table.Th w={64}>Correct</Table.Th>
                <Table.Th w={72} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {options.map((o, index) => (
                <Table.Tr key={o.key} data-testid={`option-row-${index}`}>
                  <Table.Td>
                    <TextInput
                      aria-label={`Option ${index + 1}`}
                      readOnly={!editing}
                      value={o.option}
                      onChange={(e) => setOption(o.key, { option: e.currentTarget.value })}
                      error={errors[`options.${index}.option`]}
                      data-field={`options.${index}.option`}
                      data-testid={`option-text-${index}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberField
                      aria-label={`Order of option ${index + 1}`}
                      min={0}
                      max={Z_ORDER_MAX}
                      integer
                      rangeMessage={{ below: TUTORIAL_MESSAGES.zOrder, integer: TUTORIAL_MESSAGES.zOrder }}
                      readOnly={!editing}
                      value={o.z_order}
                      onChange={(v) => setOption(o.key, { z_order: v })}
                      error={errors[`options.${index}.z_order`]}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Option ${index + 1} is correct`}
                      checked={o.is_correct}
                      disabled={!editing}
                      onChange={(e) => setOption(o.key, { is_correct: e.currentTarget.checked })}
                      data-testid={`option-correct-${index}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap">
                      {o.id && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Language setting of option ${index + 1}`}
                          onClick={() => setLanguageOption(o)}
                          data-testid={`option-language-${index}`}
                        >
                          <IconLanguage size={16} />
                        </ActionIcon>
                      )}
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        disabled={!editing}
                        aria-label={`Delete option ${index + 1}`}
                        onClick={() => void removeOption(o)}
                        data-testid={`option-delete-${index}`}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {saveErrors.view}
      <FormFooter
        isNew={isNew}
        editing={editing}
        saving={saving}
        onEdit={() => setEditing(true)}
        onCancel={() => {
          setEditing(false);
          setErrors({});
          reset(quiz.data);
        }}
        onSave={() => void submit()}
        testPrefix="quiz"
      />
      <LanguageSettingDialog
        kind="option"
        size="md"
        itemName={languageOption?.option ?? ''}
        localize={languageOption?.localize}
        opened={languageOption !== undefined}
        onClose={() => setLanguageOption(undefined)}
        onSubmit={async (localize) => {
          const o = languageOption as OptionRow;
          const saved = await api.put<TOption>(`tutorial/quiz-option/${o.id}/`, { ...optionInput(o), question: id, localize });
          setOption(o.key, { localize: saved.localize });
          return TUTORIAL_MESSAGES.optionUpdated;
        }}
        onSaved={(message) => notifications.show({ color: 'teal', message })}
      />
    </Stack>
  );
}
