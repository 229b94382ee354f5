import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Box, Stack, Typography } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { compactCount, shortDay, valueAxisWidth } from './chartAxis';
import { useChartColor } from './chartColors';
import { NoStats } from './NoStats';
import { StatsTable } from './StatsTable';

/** One point of a curve: a day, a platform and the value drawn. */
export type DayValue = { day: string; platform: PlatformKey; value: number };

/**
 * Each platform's values over days (MUI X Charts) as stacked areas: the platforms lie on one another instead of
 * crossing, and the top edge is the day's total; hovering a platform (in the chart or its legend) brings it
 * forward. Below, the same numbers as a table with a CSV file. The chart is a picture for the eye (role img,
 * named by its title); the table carries the numbers for everyone. Nothing read yet: "no stats" instead of both.
 */
export function DayChart({
  title,
  file,
  points,
  actions,
  heading = 'subtitle1',
  loading = false,
  note,
}: {
  title: string;
  file: string;
  points: DayValue[];
  /** What stands beside the title (a period's switch). */
  actions?: ReactNode;
  /** The title's look: a card's own heading on a page of cards (h6), or a chart's among others (subtitle1). */
  heading?: 'subtitle1' | 'h6';
  /** The points are still on their way: the chart's room is kept, nothing is said yet. */
  loading?: boolean;
  /** A line under the title saying what the days are (whose time zone). */
  note?: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const days = [...new Set(points.map((p) => p.day))].sort();
  const value = new Map(points.map((p) => [`${p.day}|${p.platform}`, p.value]));
  const of = (platform: PlatformKey) => days.map((d) => value.get(`${d}|${platform}`) ?? 0);
  const dayTotals = days.map((d) => PLATFORMS.reduce((a, p) => a + (value.get(`${d}|${p}`) ?? 0), 0));
  const max = Math.max(0, ...dayTotals);
  const count = compactCount(locale);
  const colorOf = useChartColor();
  return (
    <Stack spacing={1} component="section" aria-label={title} data-chart={file} sx={{ minWidth: 0 }}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" spacing={1} useFlexGap flexWrap="wrap">
        <Typography variant={heading} component="h3">
          {title}
        </Typography>
        {actions}
      </Stack>
      {note && (
        <Typography variant="caption" color="text.secondary" data-testid="chart-days-note">
          {note}
        </Typography>
      )}
      {loading ? (
        <Box sx={{ height: 280 }} aria-busy />
      ) : max === 0 ? (
        <NoStats tall />
      ) : (
        <>
          <Box
            role="img"
            aria-label={title}
            sx={{ width: '100%', minWidth: 0, '& .MuiAreaElement-root': { fillOpacity: 0.55 } }}
          >
            <LineChart
              height={280}
              xAxis={[{ scaleType: 'point', data: days, valueFormatter: shortDay(locale) }]}
              yAxis={[{ width: valueAxisWidth(max, count), valueFormatter: count }]}
              series={PLATFORMS.map((p) => ({
                id: p,
                label: PLATFORM_TITLES[p],
                data: of(p),
                color: colorOf(p),
                stack: 'platforms',
                area: true,
                showMark: false,
                highlightScope: { highlight: 'series', fade: 'global' },
                valueFormatter: (v: number | null) => (v ?? 0).toLocaleString(locale),
              }))}
              margin={{ left: 0, right: 28, top: 8 }}
            />
          </Box>
          <StatsTable
            caption={title}
            file={file}
            columns={[
              { key: 'day', label: translate('kadr.analytics.columns.day') },
              ...PLATFORMS.map((p) => ({ key: p, label: PLATFORM_TITLES[p], numeric: true })),
            ]}
            rows={[...days].reverse().map((day) => ({
              id: day,
              values: { day, ...Object.fromEntries(PLATFORMS.map((p) => [p, value.get(`${day}|${p}`) ?? 0])) },
            }))}
          />
        </>
      )}
    </Stack>
  );
}
