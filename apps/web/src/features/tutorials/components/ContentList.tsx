// The tutorial content list of a module (part 3 §2, route tutorial/module/content?id=): a link back to the module
// list and the module's name, Create, the columns Name (title), ID, Order in z_order (reordered like the modules:
// ReorderableTable), the row actions Details, Delete (a confirm naming the title in upper case) and Language
// setting; 'No Content yet!' / 'No Content found!'; 'Unauthorized access' with 'No module.' on a 404.
import { useState } from 'react';
import { Anchor, Breadcrumbs, Button, Card, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconLanguage, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@sc/shared/constants';
import { TUTORIAL_MESSAGES, type TContent } from '@sc/shared/tutorials';
import { api, errorMessage } from '../../../api/client.ts';
import { confirm } from '../../../components/ConfirmDialog.tsx';
import { ListFooter } from '../../../components/list/ListFooter.tsx';
import { ListPage } from '../../../components/list/ListPage.tsx';
import type { ListColumn, RowAction } from '../../../components/list/ListTable.tsx';
import { SearchInput } from '../../../components/list/SearchInput.tsx';
import { listParamsSchema, useListParams } from '../../../components/list/useListParams.ts';
import { useContents, useDeleteContent, useModule } from '../tutorials.api.ts';
import { ContentDialog } from './ContentDialog.tsx';
import { LanguageSettingDialog } from './LanguageSettingDialog.tsx';
import { ReorderableTable } from './ReorderableTable.tsx';
import { UnauthorizedAccess, isNotFound } from './TutorialForm.tsx';

const ZContentListParams = listParamsSchema({});
const LIST_DEFAULTS = {};

export function ContentList({ title }: { title: string }) {
  const [searchParams] = useSearchParams();
  const raw = searchParams.get('id') ?? '';
  const moduleId = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  const module = useModule(moduleId || undefined);
  if (!moduleId || (module.error && isNotFound(module.error))) {
    return (
      <Card withBorder>
        <UnauthorizedAccess what={TUTORIAL_MESSAGES.noModule} />
        <Anchor component={Link} to="/tutorial/module" display="block" ta="center">
          Back to modules
        </Anchor>
      </Card>
    );
  }
  return <ContentTable title={title} moduleId={moduleId} moduleName={module.data?.name} moduleOrder={module.data?.z_order ?? 0} />;
}

function ContentTable({ title, moduleId, moduleName, moduleOrder }: { title: string; moduleId: number; moduleName?: string; moduleOrder: number }) {
  const { params, setParams, hasFilters } = useListParams(ZContentListParams, LIST_DEFAULTS);
  const query = useContents(moduleId, {
    page: params.page,
    limit: params.limit,
    ...(params.search ? { search: params.search } : {}),
  });
  const remove = useDeleteContent();
  const [detailId, setDetailId] = useState<number | undefined>(undefined);
  const [languageContent, setLanguageContent] = useState<TContent | undefined>(undefined);
  const rows = query.data?.results ?? [];
  const total = query.data?.count ?? 0;
  const lastOrder = rows.reduce((max, c) => Math.max(max, c.z_order), 0);

  const deleteContent = async (content: TContent) => {
    const ok = await confirm({
      title: 'Delete content',
      message: TUTORIAL_MESSAGES.deleteContent(content.title),
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await remove.mutateAsync(content.id);
      notifications.show({ color: 'teal', message: answer.detail });
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  };

  const rowActions = (content: TContent): RowAction[] => [
    { label: 'Details', icon: <IconEye size={16} />, onClick: () => setDetailId(content.id) },
    { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => void deleteContent(content) },
    { label: 'Language setting', icon: <IconLanguage size={16} />, onClick: () => setLanguageContent(content) },
  ];

  const columns: ListColumn<TContent>[] = [
    {
      accessor: 'title',
      title: 'Name',
      render: (c) => (
        <Text size="sm" fw={600} data-testid={`content-name-${c.id}`}>
          {c.title}
        </Text>
      ),
    },
    { accessor: 'id', title: 'ID', hideOnPhone: true },
    { accessor: 'z_order', title: 'Order' },
  ];

  return (
    <>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/tutorial/module" data-testid="content-back">
          Module
        </Anchor>
        <Text data-testid="content-module-name">{moduleName ?? '…'}</Text>
      </Breadcrumbs>
      <ListPage
        title={moduleName ? `${title} – ${moduleName}` : title}
        testId="content-list"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDetailId(0)} data-testid="content-create">
            Create
          </Button>
        }
        filters={
          <SearchInput
            placeholder="Search by title"
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
          kind="content"
          moduleId={moduleId}
          records={query.data?.results}
          columns={columns}
          nameOf={(c) => c.title}
          offset={(params.page - 1) * params.limit}
          total={total}
          canReorder={!params.search}
          fetching={query.isFetching}
          emptyText={hasFilters ? TUTORIAL_MESSAGES.emptyContentsFiltered : TUTORIAL_MESSAGES.emptyContents}
          rowActions={rowActions}
          rowLabel={(c) => `Actions for content ${c.title}`}
          testId="content-table"
        />
      </ListPage>
      <ContentDialog
        contentId={detailId}
        module={{ id: moduleId, z_order: moduleOrder }}
        nextOrder={Math.max(lastOrder, total) + 1}
        onClose={() => setDetailId(undefined)}
      />
      <LanguageSettingDialog
        kind="content"
        itemName={languageContent?.title ?? ''}
        localize={languageContent?.localize}
        opened={languageContent !== undefined}
        onClose={() => setLanguageContent(undefined)}
        onSubmit={async (localize) => {
          const c = languageContent as TContent;
          const saved = await api.put<{ detail: string }>(`tutorial/content/${c.id}/`, {
            title: c.title,
            primary_text: c.primary_text,
            z_order: c.z_order,
            primary_image: c.primary_image,
            app_version: c.app_version,
            module: c.module,
            status: c.status,
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
