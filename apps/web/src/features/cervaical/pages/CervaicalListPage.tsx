// Route `cervaical` (part 3 §2; the CERVAICAL_REVIEWER's landing page, architecture §7b): the cervical exam list,
// titled as its menu entry (docs/decisions.md, "Labels"), with the reviewers' agreement below it. Opened from a map
// with `?ids=1,2,3` it lists exactly those exams (POST cervaical/ids/); a failed read says so in the spec's words.
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { menuLabel } from '../../../app/routeAccess.ts';
import { CervicalList } from '../components/CervicalList.tsx';

/** `?ids=` as exam ids (what is not a positive whole number is left out); undefined without the parameter. */
export function parseExamIds(raw: string | null): number[] | undefined {
  if (raw === null) return undefined;
  return raw
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
}

export function CervaicalListPage() {
  const [search] = useSearchParams();
  const raw = search.get('ids');
  const ids = useMemo(() => parseExamIds(raw), [raw]);
  return <CervicalList title={menuLabel('cervaical')} ids={ids} />;
}
