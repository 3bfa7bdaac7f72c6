import { useSearchParams } from 'react-router';
import { menuLabel } from '../../../app/routeAccess.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

// Part 3 "Release Notes": the app is chosen by query flag ibe, orca or cervaical; the title is the menu's
// group and entry.
export function AppVersionPage() {
  const [params] = useSearchParams();
  const key = params.has('orca')
    ? 'app-version-orca'
    : params.has('cervaical')
      ? 'app-version-cervaical'
      : 'app-version-ibe';
  return <PageHeader title={`${menuLabel('release-notes')} – ${menuLabel(key)}`} />;
}
