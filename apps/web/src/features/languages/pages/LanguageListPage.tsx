import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

export function LanguageListPage() {
  return <PageHeader title={menuLabel('language')} />;
}
