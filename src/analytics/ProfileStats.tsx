import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../contract/analytics';
import type { KadrDataProvider } from '../providers/dataProvider';
import { DayChart } from './DayChart';

/** A profile's views per day on each platform over 7, 30 or 90 days, with its table and CSV. */
export const ProfileStats = ({ accountId }: { accountId: number }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [days, setDays] = useState<AnalyticsPeriod>('30');
  const { data } = useQuery({
    queryKey: ['analytics', 'profile', accountId, days],
    queryFn: ({ signal }) => dataProvider.profileCurve(accountId, days, signal),
  });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Stack spacing={1}>
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
          {data && (
            <DayChart
              title={translate('kadr.analytics.profile_chart')}
              file={`profile-${accountId}-views-${days}d`}
              points={data.series.map((p) => ({ day: p.day, platform: p.platform, value: p.views }))}
            />
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};
