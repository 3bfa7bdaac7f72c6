import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';

// Part 3 "Release Notes": the app is chosen by query flag ibe, orca or cervaical.
export function AppVersionPage() {
  const [params] = useSearchParams();
  const app = params.has('orca') ? 'OrCA' : params.has('cervaical') ? 'Cervaical' : 'IBE';
  return <PageHeader title={`Release Notes – ${app}`} />;
}
