// The dashboard's follow-up part (issue 26): the card and the table per organization, loaded lazily by the page
// for FOLLOW_UP_ROLES only.
import type { PeriodParams } from '../../../components/list/periods.ts';
import type { TStatsPeriod } from '../dashboard.api.ts';
import { useFollowUpFigures } from '../followUpFigures.api.ts';
import { FollowUpCard } from './FollowUpCard.tsx';
import { FollowUpFiguresBox } from './FollowUpFiguresBox.tsx';
import { periodLabel } from './StatTiles.tsx';

export function FollowUpSection({ period, listPeriod }: { period: TStatsPeriod; listPeriod: PeriodParams }) {
  const figures = useFollowUpFigures(period);
  return (
    <>
      <FollowUpCard figures={figures.data} caption={periodLabel(listPeriod)} />
      <FollowUpFiguresBox period={period} />
    </>
  );
}
