// Route `cervaical` (part 3 §2; the CERVAICAL_REVIEWER's landing page, DESIGN §7b): the cervical exam list, titled
// as its menu entry (docs/decisions.md, "Labels"), with the reviewers' agreement below it.
import { menuLabel } from '../../../app/routeAccess.ts';
import { CervicalList } from '../components/CervicalList.tsx';

export function CervaicalListPage() {
  return <CervicalList title={menuLabel('cervaical')} />;
}
