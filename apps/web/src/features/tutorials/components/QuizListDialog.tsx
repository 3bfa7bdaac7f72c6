// The quiz list modal (part 3 §2): the module's name in the header, Create, the table Question, Multi select, ID,
// Order in z_order (reordered like the modules: ReorderableTable), the row actions Details and Language setting;
// 'No Quiz yet!' / 'No Quiz found!'; 'Unauthorized access' with 'No module.' on a 404. The quiz form and the
// language setting open on top of it, with the list still in view behind (StackedModal).
import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconLanguage, IconPlus } from '@tabler/icons-react';
import { TUTORIAL_MESSAGES, type TModule, type TQuiz } from '@sc/shared/tutorials';
import { api } from '../../../api/client.ts';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import type { ListColumn } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { useQuizzes } from '../tutorials.api.ts';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { QuizDialog } from './QuizDialog.tsx';
import { ReorderableTable } from './ReorderableTable.tsx';
import { StackedModal } from './StackedModal.tsx';
import { UnauthorizedAccess, isNotFound } from './TutorialForm.tsx';

export function QuizListDialog({ module, onClose }: { module: TModule | undefined; onClose: () => void }) {
  return (
    <StackedModal
      opened={module !== undefined}
      onClose={onClose}
      title={module ? `Quiz – ${module.name}` : 'Quiz'}
      size="xl"
      data-testid="quiz-list-dialog"
    >
      {module && <QuizList module={module} />}
    </StackedModal>
  );
}

function QuizList({ module }: { module: TModule }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const query = useQuizzes(module.id, { page, limit, ...(search ? { search } : {}) });
  const [detailId, setDetailId] = useState<number | undefined>(undefined);
  const [languageQuiz, setLanguageQuiz] = useState<TQuiz | undefined>(undefined);
  const rows = query.data?.results ?? [];

  if (query.error && isNotFound(query.error)) return <UnauthorizedAccess what={TUTORIAL_MESSAGES.noModule} />;
  const total = query.data?.count ?? 0;
  const lastOrder = rows.reduce((max, q) => Math.max(max, q.z_order), 0);

  const columns: ListColumn<TQuiz>[] = [
    { accessor: 'question', title: 'Question', render: (q) => <Text size="sm">{q.question}</Text> },
    {
      accessor: 'is_multi_select',
      title: 'Multi select',
      hideOnPhone: true,
      render: (q) => (
        <Badge variant="light" color={q.is_multi_select ? 'teal' : 'gray'}>
          {q.is_multi_select ? 'Yes' : 'No'}
        </Badge>
      ),
    },
    { accessor: 'id', title: 'ID', hideOnPhone: true },
    { accessor: 'z_order', title: 'Order' },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SearchInput
          placeholder="Search by question"
          value={search}
          onChange={(s) => {
            setSearch(s);
            setPage(1);
          }}
          w={{ base: '100%', sm: 240 }}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setDetailId(0)} data-testid="quiz-create">
          Create
        </Button>
      </Group>
      <ReorderableTable
        kind="quiz"
        moduleId={module.id}
        records={query.data?.results}
        columns={columns}
        nameOf={(q) => q.question}
        offset={(page - 1) * limit}
        total={total}
        canReorder={!search}
        fetching={query.isFetching}
        emptyText={search ? TUTORIAL_MESSAGES.emptyQuizzesFiltered : TUTORIAL_MESSAGES.emptyQuizzes}
        rowActions={(q) => [
          { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDetailId(q.id) },
          { label: 'Language setting', icon: <IconLanguage size={16} />, onClick: () => setLanguageQuiz(q) },
        ]}
        rowLabel={(q) => `Actions for quiz ${q.question}`}
        testId="quiz-table"
      />
      {total > 10 && (
        <ListFooter
          page={page}
          limit={limit}
          total={total}
          onPageChange={setPage}
          onLimitChange={(l) => {
            setLimit(l);
            setPage(1);
          }}
        />
      )}
      <QuizDialog quizId={detailId} moduleId={module.id} nextOrder={Math.max(lastOrder, total) + 1} onClose={() => setDetailId(undefined)} />
      <LanguageSettingDialog
        kind="quiz"
        itemName={languageQuiz?.question ?? ''}
        localize={languageQuiz?.localize}
        opened={languageQuiz !== undefined}
        onClose={() => setLanguageQuiz(undefined)}
        onSubmit={async (localize) => {
          const q = languageQuiz as TQuiz;
          const saved = await api.put<{ detail: string }>(`tutorial/quiz/${q.id}/`, {
            question: q.question,
            is_multi_select: q.is_multi_select,
            z_order: q.z_order,
            primary_image: q.primary_image,
            module: q.module,
            localize,
          });
          void query.refetch();
          return saved.detail;
        }}
        onSaved={(message) => notifications.show({ color: 'teal', message })}
      />
    </Stack>
  );
}
