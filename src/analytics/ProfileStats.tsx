import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../contract/analytics';
import type { KadrDataProvider } from '../providers/dataProvider';
import { useProfileZone } from '../slots/useProfileZone';
import { DayChart } from './DayChart';
import { DaysZone } from './DaysZone';

/** A profile's views per day on each platform over 7, 30 or 90 days, with its table and CSV. */
export const ProfileStats = ({ accountId }: { accountId: number }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [days, setDays] = useState<AnalyticsPeriod>('30');
  // The profile's own days (its zone, else the viewer's), as its dates are shown everywhere.
  const zone = useProfileZone(accountId);
  const { data } = useQuery({
    queryKey: ['analytics', 'profile', accountId, days, zone],
    queryFn: ({ signal }) => dataProvider.profileCurve(accountId, days, zone, signal),
  });
  const period = (
    <Stack direction="row" alignItems="center" spacing={2} useFlexGap flexWrap="wrap">
      <DaysZone zone={zone} />
      <ToggleButtonGroup
        size="small"
        exclusive
        value={days}
        onChange={(_e, v: AnalyticsPeriod | null) => v && setDays(v)}
        aria-label={translate('kadr.analytics.period')}
      >
        {ANALYTICS_PERIODS.map((p) => (
          <ToggleButton key={p} value={p}>
            {translate('kadr.analytics.days', { smart_count: Number(p) })}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Stack>
  );
  // A card of its own, outlined and headed like the profile page's other panels (slots, videos).
  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="profile-stats">
      <CardContent>
        <DayChart
          title={translate('kadr.analytics.profile_chart')}
          file={`profile-${accountId}-views-${days}d`}
          points={data?.series.map((p) => ({ day: p.day, platform: p.platform, value: p.views })) ?? []}
          actions={period}
          heading="h6"
          loading={!data}
        />
      </CardContent>
    </Card>
  );
};
