import { PageHeader } from '../../../components/PageHeader.tsx';

export function ModuleListPage() {
  return <PageHeader title="Module" />;
}
