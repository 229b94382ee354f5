import { useTranslate } from 'react-admin';
import { Box, Stack, Typography } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { PLATFORM_COLORS } from './platformColors';
import { StatsTable } from './StatsTable';

/** One point of a curve: a day, a platform and the value drawn. */
export type DayValue = { day: string; platform: PlatformKey; value: number };

/**
 * A line per platform over days (MUI X Charts), and below it the same numbers as a table with a CSV file. The
 * chart is a picture for the eye (role img, named by its title); the table carries the numbers for everyone.
 */
export function DayChart({ title, file, points }: { title: string; file: string; points: DayValue[] }) {
  const translate = useTranslate();
  const days = [...new Set(points.map((p) => p.day))].sort();
  const value = new Map(points.map((p) => [`${p.day}|${p.platform}`, p.value]));
  const of = (platform: PlatformKey) => days.map((d) => value.get(`${d}|${platform}`) ?? 0);
  return (
    <Stack spacing={1} component="section" aria-label={title} data-chart={file}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Box role="img" aria-label={title} sx={{ width: '100%', minWidth: 0 }}>
        <LineChart
          height={260}
          xAxis={[{ scaleType: 'point', data: days, valueFormatter: (d: string) => d.slice(5) }]}
          series={PLATFORMS.map((p) => ({
            id: p,
            label: PLATFORM_TITLES[p],
            data: of(p),
            color: PLATFORM_COLORS[p],
            showMark: false,
          }))}
          margin={{ left: 8, right: 8 }}
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
    </Stack>
  );
}
