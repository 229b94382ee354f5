import { useState, type ReactNode } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, Grid, Link, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { ANALYTICS_PERIODS, STAT_METRICS, type AnalyticsPeriod, type Dashboard } from '../contract/analytics';
import type { KadrDataProvider } from '../providers/dataProvider';
import { Loading } from '../layout/Loading';
import { DEFAULT_PERIOD } from './period';
import { DayChart } from './DayChart';
import { NoStats } from './NoStats';
import { PlatformChart } from './PlatformChart';
import { StatsTable } from './StatsTable';
import { detailPath } from '../publications/paths';

/** The change against the period before, as a signed percentage; null when there was nothing to compare. */
export const growth = (now: number, before: number) =>
  before > 0 ? `${now >= before ? '+' : ''}${Math.round(((now - before) / before) * 100)}%` : null;

/**
 * /analytics (issue 22 item 2): growth over the last 7, 30 or 90 days: totals with their change, views per day
 * and per platform, the top videos and profiles. Every chart has its table and CSV; a user sees their own posts,
 * an admin everyone's (the server decides).
 */
export const AnalyticsPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [days, setDays] = useState<AnalyticsPeriod>(DEFAULT_PERIOD);
  const { data } = useQuery({
    queryKey: ['analytics', 'dashboard', days],
    // A cold page's first answer was asked for with the page's first script (src/providers/firstData.ts).
    queryFn: ({ signal }) => dataProvider.analyticsDashboard(days, signal),
  });
  return (
    <Box sx={{ mt: 2 }} data-analytics-dashboard>
      <Title title={translate('kadr.analytics.title')} />
      <Stack direction="row" alignItems="center" spacing={2} sx={{ mb: 2 }} useFlexGap flexWrap="wrap">
        <Typography id="analytics-period">{translate('kadr.analytics.period')}</Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={days}
          onChange={(_e, v: AnalyticsPeriod | null) => v && setDays(v)}
          aria-labelledby="analytics-period"
        >
          {ANALYTICS_PERIODS.map((p) => (
            <ToggleButton key={p} value={p}>
              {translate('kadr.analytics.days', { smart_count: Number(p) })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {data ? <DashboardBody data={data} days={days} /> : <Loading />}
    </Box>
  );
};

function DashboardBody({ data, days }: { data: Dashboard; days: AnalyticsPeriod }) {
  const translate = useTranslate();
  const metric = (k: string) => translate(`kadr.analytics.metrics.${k}`);
  return (
    <Stack spacing={2}>
      <Card component="section" aria-label={translate('kadr.analytics.totals')}>
        <CardContent>
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            {translate('kadr.analytics.totals')} ({data.from} — {data.to})
          </Typography>
          <Grid container spacing={2}>
            {STAT_METRICS.map((k) => {
              const change = growth(data.totals[k], data.previous[k]);
              return (
                <Grid key={k} size={{ xs: 6, sm: 4, md: 2.4 }} data-total={k}>
                  <Typography variant="body2" color="text.secondary">
                    {metric(k)}
                  </Typography>
                  <Typography variant="h5" component="p">
                    {data.totals[k].toLocaleString()}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {change
                      ? translate('kadr.analytics.change', { value: change })
                      : translate('kadr.analytics.no_change')}
                  </Typography>
                </Grid>
              );
            })}
          </Grid>
        </CardContent>
      </Card>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Card>
            <CardContent>
              <DayChart
                title={translate('kadr.analytics.by_day')}
                file={`views-by-day-${days}d`}
                note={translate('kadr.analytics.days_each_zone')}
                points={data.series.map((p) => ({ day: p.day, platform: p.platform, value: p.views }))}
              />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Card>
            <CardContent>
              <PlatformChart byPlatform={data.byPlatform} file={`by-platform-${days}d`} />
            </CardContent>
          </Card>
        </Grid>
        <TopCard title="kadr.analytics.top_videos" empty={!data.topVideos.length}>
          <StatsTable
            caption={translate('kadr.analytics.top_videos')}
            file={`top-videos-${days}d`}
            stackOnPhone
            columns={[
              { key: 'title', label: translate('kadr.analytics.columns.video') },
              ...STAT_METRICS.slice(0, 3).map((k) => ({ key: k, label: metric(k), numeric: true })),
            ]}
            rows={data.topVideos.map((v) => ({
              id: v.videoId,
              values: { title: v.title || `#${v.videoId}`, views: v.views, likes: v.likes, comments: v.comments },
              cells: v.publicationId
                ? {
                    title: (
                      <Link component={RouterLink} to={detailPath(String(v.publicationId))}>
                        {v.title || `#${v.videoId}`}
                      </Link>
                    ),
                  }
                : undefined,
            }))}
          />
        </TopCard>
        <TopCard title="kadr.analytics.top_profiles" empty={!data.topProfiles.length}>
          <StatsTable
            caption={translate('kadr.analytics.top_profiles')}
            file={`top-profiles-${days}d`}
            stackOnPhone
            columns={[
              { key: 'profile', label: translate('kadr.analytics.columns.profile') },
              ...STAT_METRICS.slice(0, 3).map((k) => ({ key: k, label: metric(k), numeric: true })),
            ]}
            rows={data.topProfiles.map((p) => ({
              id: p.accountId,
              values: {
                profile: p.profile || `#${p.accountId}`,
                views: p.views,
                likes: p.likes,
                comments: p.comments,
              },
              cells: {
                profile: (
                  <Link component={RouterLink} to={`/accounts/${p.accountId}`}>
                    {p.profile || `#${p.accountId}`}
                  </Link>
                ),
              },
            }))}
          />
        </TopCard>
      </Grid>
    </Stack>
  );
}

/** A top list's card (half the width on a laptop): its heading, and its table or "nothing yet". */
const TopCard = ({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Card>
        <CardContent>
          <Stack spacing={1}>
            <Typography variant="subtitle1" component="h3">
              {translate(title)}
            </Typography>
            {empty ? <NoStats /> : children}
          </Stack>
        </CardContent>
      </Card>
    </Grid>
  );
};
