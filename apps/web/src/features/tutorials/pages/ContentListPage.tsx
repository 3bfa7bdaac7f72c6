import { menuLabel } from '../../../app/routeAccess.ts';
import { ContentList } from '../components/ContentList.tsx';

export function ContentListPage() {
  return <ContentList title={`${menuLabel('tutorial')} – Content`} />;
}
