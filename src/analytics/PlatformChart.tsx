import { useLocaleState, useTranslate } from 'react-admin';
import { Box, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { STAT_METRICS, type Dashboard } from '../contract/analytics';
import { PLATFORM_TITLES } from '../contract/platforms';
import { compactCount, valueAxisWidth } from './chartAxis';
import { useChartColor } from './chartColors';
import { NoStats } from './NoStats';
import { StatsTable } from './StatsTable';

/**
 * The period's views per platform: a bar each, in its platform's colour, and below them every counter per
 * platform as a table (a counter a row, a platform a column: four columns fit a phone) with its CSV. Nothing
 * read yet: "no stats" instead of an empty frame of axes.
 */
export function PlatformChart({ byPlatform, file }: { byPlatform: Dashboard['byPlatform']; file: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const title = translate('kadr.analytics.by_platform');
  const metric = (k: string) => translate(`kadr.analytics.metrics.${k}`);
  const titles = byPlatform.map((p) => PLATFORM_TITLES[p.platform]);
  const max = Math.max(0, ...byPlatform.map((p) => p.views));
  const count = compactCount(locale);
  const colorOf = useChartColor();
  return (
    <Stack spacing={1} component="section" aria-label={title} data-chart="by-platform" sx={{ minWidth: 0 }}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      {max === 0 ? (
        <NoStats tall />
      ) : (
        <>
          <Box role="img" aria-label={title} sx={{ width: '100%', minWidth: 0 }}>
            <BarChart
              height={280}
              xAxis={[
                {
                  scaleType: 'band',
                  data: titles,
                  colorMap: {
                    type: 'ordinal',
                    values: titles,
                    colors: byPlatform.map((p) => colorOf(p.platform)),
                  },
                },
              ]}
              yAxis={[{ width: valueAxisWidth(max, count), valueFormatter: count }]}
              series={[
                {
                  data: byPlatform.map((p) => p.views),
                  label: metric('views'),
                  valueFormatter: (v: number | null) => (v ?? 0).toLocaleString(locale),
                },
              ]}
              margin={{ left: 0, right: 16, top: 8 }}
              hideLegend
            />
          </Box>
          <StatsTable
            caption={title}
            file={file}
            columns={[
              { key: 'metric', label: translate('kadr.analytics.columns.metric') },
              ...byPlatform.map((p) => ({ key: p.platform, label: PLATFORM_TITLES[p.platform], numeric: true })),
            ]}
            rows={STAT_METRICS.map((k) => ({
              id: k,
              values: { metric: metric(k), ...Object.fromEntries(byPlatform.map((p) => [p.platform, p[k]])) },
            }))}
          />
        </>
      )}
    </Stack>
  );
}
