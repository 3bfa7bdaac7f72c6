// The Module page (part 3 §2): Create, the table Name, ID, Order in z_order, the row actions Details, Content,
// Quiz, Language setting (and Move up / Move down), and drag-and-drop reordering that writes the z_order of the
// whole list in one call (ReorderableTable). The paging footer shows only above 10 modules. ADMIN only, as the API.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconLanguage, IconListCheck, IconPlus, IconVideo } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@sc/shared/constants';
import { TUTORIAL_MESSAGES, type TModule } from '@sc/shared/tutorials';
import { api } from '../../../api/client.ts';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import type { ListColumn, RowAction } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useModules } from '../tutorials.api.ts';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { ModuleDialog } from './ModuleDialog.tsx';
import { QuizListDialog } from './QuizListDialog.tsx';
import { ReorderableTable } from './ReorderableTable.tsx';

const ZModuleListParams = listParamsSchema({});
const LIST_DEFAULTS = {};

export function ModuleList({ title }: { title: string }) {
  const navigate = useNavigate();
  const { params, setParams, hasFilters } = useListParams(ZModuleListParams, LIST_DEFAULTS);
  const query = useModules({
    page: params.page,
    limit: params.limit,
    ...(params.search ? { search: params.search } : {}),
  });
  const [detailId, setDetailId] = useState<number | undefined>(undefined);
  const [quizModule, setQuizModule] = useState<TModule | undefined>(undefined);
  const [languageModule, setLanguageModule] = useState<TModule | undefined>(undefined);

  const rows = query.data?.results ?? [];
  const total = query.data?.count ?? 0;
  const lastOrder = rows.reduce((max, m) => Math.max(max, m.z_order), 0);

  const rowActions = (module: TModule): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDetailId(module.id) },
    {
      label: 'Content',
      icon: <IconVideo size={16} />,
      onClick: () => void navigate(`/tutorial/module/content?id=${module.id}`),
    },
    { label: 'Quiz', icon: <IconListCheck size={16} />, onClick: () => setQuizModule(module) },
    { label: 'Language setting', icon: <IconLanguage size={16} />, onClick: () => setLanguageModule(module) },
  ];

  const columns: ListColumn<TModule>[] = [
    {
      accessor: 'name',
      title: 'Name',
      render: (m) => (
        <Text size="sm" fw={600} data-testid={`module-name-${m.id}`}>
          {m.name}
        </Text>
      ),
    },
    { accessor: 'id', title: 'ID', hideOnPhone: true },
    { accessor: 'z_order', title: 'Order', render: (m) => <span data-testid={`module-order-${m.id}`}>{m.z_order}</span> },
  ];

  return (
    <>
      <ListPage
        title={title}
        testId="module-list"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDetailId(0)} data-testid="module-create">
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder="Search by name"
            value={params.search}
            onChange={(search) => setParams({ search })}
            w={{ base: '100%', sm: 260 }}
          />
        }
        footer={
          total > DEFAULT_PAGE_SIZE || params.page > 1 ? (
            <ListFooter
              page={params.page}
              limit={params.limit}
              total={total}
              onPageChange={(page) => setParams({ page })}
              onLimitChange={(limit) => setParams({ limit })}
            />
          ) : undefined
        }
      >
        <ReorderableTable
          kind="module"
          records={query.data?.results}
          columns={columns}
          nameOf={(m) => m.name}
          offset={(params.page - 1) * params.limit}
          total={total}
          canReorder={!params.search}
          fetching={query.isFetching}
          emptyText={hasFilters ? TUTORIAL_MESSAGES.emptyModulesFiltered : TUTORIAL_MESSAGES.emptyModules}
          rowActions={rowActions}
          rowLabel={(m) => `Actions for module ${m.name}`}
          testId="module-table"
        />
      </ListPage>
      <ModuleDialog
        moduleId={detailId}
        nextOrder={Math.max(lastOrder, total) + 1}
        onClose={() => setDetailId(undefined)}
      />
      <QuizListDialog module={quizModule} onClose={() => setQuizModule(undefined)} />
      <LanguageSettingDialog
        kind="module"
        itemName={languageModule?.name ?? ''}
        localize={languageModule?.localize}
        opened={languageModule !== undefined}
        onClose={() => setLanguageModule(undefined)}
        onSubmit={async (localize) => {
          const m = languageModule as TModule;
          const saved = await api.put<{ detail: string }>(`tutorial/module/${m.id}/`, {
            name: m.name,
            pass_text: m.pass_text,
            re_take_module_again_text: m.re_take_module_again_text,
            re_take_module_text: m.re_take_module_text,
            re_take_question_percentage: m.re_take_question_percentage,
            re_take_question_text: m.re_take_question_text,
            z_order: m.z_order,
            status: m.status,
            localize,
          });
          void query.refetch();
          return saved.detail;
        }}
        onSaved={(message) => notifications.show({ color: 'teal', message })}
      />
    </>
  );
}
