// The Languages page (part 3 §2): search by name or iso_code (debounced 500 ms), Create, and a sortable table of
// Name and ISO code (plus whether tutorials exist in it, left out on a phone) with a Details button per row that
// opens 'Language details' read-only: the list kit's RecordList. ADMIN only, as the API's writes.
import { Text } from '@mantine/core';
import { LANGUAGE_MESSAGES, type TLanguage } from '@sc/shared/languages';
import { RecordList } from '../../../components/list/RecordList.tsx';
import type { ListColumn } from '../../../components/list/ListTable.tsx';
import { useLanguages } from '../languages.api.ts';
import { LanguageDialog } from './LanguageDialog.tsx';

const DEFAULTS = { ordering: 'name' };
const EMPTY = { none: LANGUAGE_MESSAGES.emptyNone, filtered: LANGUAGE_MESSAGES.emptyFiltered };

const COLUMNS: ListColumn<TLanguage>[] = [
  {
    accessor: 'name',
    title: 'Name',
    sortable: true,
    render: (l) => (
      <Text size="sm" fw={600}>
        {l.name}
      </Text>
    ),
  },
  {
    accessor: 'iso_code',
    title: 'ISO code',
    sortable: true,
    render: (l) => (
      <Text size="sm" ff="monospace">
        {l.iso_code}
      </Text>
    ),
  },
  {
    accessor: 'is_tutorial_available',
    title: 'Tutorial',
    hideOnPhone: true,
    render: (l) =>
      l.is_tutorial_available ? (
        <Text size="sm" fw={600} c="teal.9">
          Available
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

export function LanguageList({ title }: { title: string }) {
  return (
    <RecordList
      title={title}
      testId="language"
      defaults={DEFAULTS}
      useRecords={useLanguages}
      searchPlaceholder={LANGUAGE_MESSAGES.searchPlaceholder}
      empty={EMPTY}
      columns={COLUMNS}
      detailsLabel={(l) => `Details of ${l.name}`}
      dialog={({ opened, recordId, onClose }) => (
        <LanguageDialog opened={opened} languageId={recordId} onClose={onClose} />
      )}
    />
  );
}
