import { useState } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../contract/analytics';
import { zoneLabel } from '../contract/time-zones';
import type { KadrDataProvider } from '../providers/dataProvider';
import { DayChart } from './DayChart';

/** A profile's views per day (days in its time zone, named) on each platform over 7, 30 or 90 days, with its table and CSV. */
export const ProfileStats = ({ accountId }: { accountId: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [days, setDays] = useState<AnalyticsPeriod>('30');
  const { data } = useQuery({
    queryKey: ['analytics', 'profile', accountId, days],
    queryFn: ({ signal }) => dataProvider.profileCurve(accountId, days, signal),
  });
  const period = (
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
          note={
            data?.zone && translate('kadr.analytics.days_in_zone', { zone: zoneLabel(data.zone, new Date(), locale) })
          }
        />
      </CardContent>
    </Card>
  );
};
