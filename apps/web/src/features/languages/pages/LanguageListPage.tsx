import { menuLabel } from '../../../app/routeAccess.ts';
import { LanguageList } from '../components/LanguageList.tsx';

export function LanguageListPage() {
  return <LanguageList title={menuLabel('language')} />;
}
