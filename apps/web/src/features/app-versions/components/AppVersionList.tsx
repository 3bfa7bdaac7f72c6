// The Release Notes list of one app (part 3 §2): name search, Create, and a sortable table of Version Name and
// Version code (plus the tutorial version and the date, left out on a phone) with a Details button per row that
// opens the version read-only: the list kit's RecordList. The app is the page's (`app-version?ibe|orca|cervaical`).
import { useMemo } from 'react';
import { Text } from '@mantine/core';
import { APP_VERSION_MESSAGES, type TAppType, type TAppVersion } from '@sc/shared/app-versions';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { RecordList } from '../../../components/list/RecordList.tsx';
import type { ListColumn } from '../../../components/list/ListTable.tsx';
import { useAppVersions } from '../appVersions.api.ts';
import { AppVersionDialog } from './AppVersionDialog.tsx';

const DEFAULTS = { ordering: '-created' };
const EMPTY = { none: APP_VERSION_MESSAGES.emptyNone, filtered: APP_VERSION_MESSAGES.emptyFiltered };

const COLUMNS: ListColumn<TAppVersion>[] = [
  {
    accessor: 'name',
    title: 'Version Name',
    sortable: true,
    render: (v) => (
      <Text size="sm" fw={600}>
        {v.name}
      </Text>
    ),
  },
  { accessor: 'code', title: 'Version code', sortable: true },
  {
    accessor: 'tutorial_version',
    title: 'Tutorial version',
    sortable: true,
    hideOnPhone: true,
    render: (v) => v.tutorial_version ?? '—',
  },
  {
    accessor: 'created',
    title: 'Created',
    sortable: true,
    hideOnPhone: true,
    render: (v) => <ListDate value={v.created} />,
  },
];

export function AppVersionList({ title, type }: { title: string; type: TAppType }) {
  const fixedQuery = useMemo(() => ({ type }), [type]);
  return (
    <RecordList
      title={title}
      testId="app-version"
      defaults={DEFAULTS}
      useRecords={useAppVersions}
      fixedQuery={fixedQuery}
      searchPlaceholder={APP_VERSION_MESSAGES.searchPlaceholder}
      empty={EMPTY}
      columns={COLUMNS}
      detailsLabel={(v) => `Details of version ${v.name}`}
      dialog={({ opened, recordId, onClose }) => (
        <AppVersionDialog opened={opened} type={type} versionId={recordId} onClose={onClose} />
      )}
    />
  );
}
