import { PageHeader } from '../../../components/PageHeader.tsx';

export function ContentListPage() {
  return <PageHeader title="Content" />;
}
