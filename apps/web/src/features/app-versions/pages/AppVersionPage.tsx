import { useSearchParams } from 'react-router';
import type { TAppType } from '@sc/shared/app-versions';
import { menuLabel } from '../../../app/routeAccess.ts';
import { AppVersionList } from '../components/AppVersionList.tsx';

// Part 3 "Release Notes": the app is chosen by query flag ibe, orca or cervaical; the title is the menu's group and
// entry. A key per app, so switching apps starts a fresh list (and closes an open dialog).
export function AppVersionPage() {
  const [params] = useSearchParams();
  const [type, key]: [TAppType, string] = params.has('orca')
    ? ['ORCA', 'app-version-orca']
    : params.has('cervaical')
      ? ['CERVAICAL', 'app-version-cervaical']
      : ['IBE', 'app-version-ibe'];
  return <AppVersionList key={type} type={type} title={`${menuLabel('release-notes')} – ${menuLabel(key)}`} />;
}
