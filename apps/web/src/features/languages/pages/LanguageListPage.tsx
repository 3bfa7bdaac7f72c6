import { PageHeader } from '../../../components/PageHeader.tsx';

export function LanguageListPage() {
  return <PageHeader title="Languages" />;
}
