import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, Stack, Typography, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Variant } from '../contract/analytics';
import { PLATFORM_TITLES } from '../contract/platforms';
import type { KadrDataProvider } from '../providers/dataProvider';
import { StatsTable } from './StatsTable';
import { NoStats } from './NoStats';
import { compactCount, valueAxisWidth } from './chartAxis';

/** A variation's parameters as the operator reads them (the render's own numbers). */
function paramsOf(v: Variant, t: (k: string) => string): [string, string][] {
  const x = v.variation;
  if (!x) return [];
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
  return [
    [t('zoom'), `×${x.zoom}`],
    [t('offset'), `${signed(x.dx)}, ${signed(x.dy)}`],
    [t('brightness'), signed(x.brightness)],
    [t('contrast'), `×${x.contrast}`],
    [t('saturation'), `×${x.saturation}`],
    [t('speed'), `×${x.speed}`],
    [t('trim'), String(x.trimStartSec)],
  ];
}

/**
 * A render request's outputs side by side (issue 22 item 3): each one's variation and background, its views at
 * 24 h and 7 days after going public (normalised by age: the mean over its posts that old) and now, per profile
 * and platform. A bar chart compares them; its table and CSV hold the same numbers.
 */
export const RequestVariants = ({ requestId }: { requestId: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { palette } = useTheme();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['analytics', 'variants', requestId],
    queryFn: ({ signal }) => dataProvider.renderVariants(requestId, signal),
  });
  if (!data?.variants.length) return null;
  const t = (k: string, o?: object) => translate(`kadr.analytics.variants.${k}`, o);
  const name = (v: Variant) => t('output', { index: v.index + 1 });
  const title = t('title');
  const variants = [...data.variants].sort((a, b) => a.index - b.index);
  const count = compactCount(locale);
  const noneRead = variants.every((v) => v.views24h === null && v.views7d === null);
  const max = Math.max(0, ...variants.flatMap((v) => [v.views24h ?? 0, v.views7d ?? 0]));
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }} data-variants={requestId}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('hint')}
      </Typography>
      {/* Before any post of the request is 24 h old and read, no frame of empty axes: the sentence the dashboard says. */}
      {noneRead ? (
        <NoStats tall />
      ) : (
        <Box role="img" aria-label={title}>
          <BarChart
            height={240}
            xAxis={[{ scaleType: 'band', data: variants.map(name) }]}
            // Whole, short counts on a value axis as wide as its labels (reads of 0 only: 0 and 1, not a cut "0.0…").
            yAxis={[{ width: valueAxisWidth(max, count), valueFormatter: count, tickMinStep: 1 }]}
            series={[
              // The theme's colours (each mode's shade has 3:1 on its paper), not the charts' default palette.
              { data: variants.map((v) => v.views24h), label: t('views24h'), color: palette.primary.main },
              { data: variants.map((v) => v.views7d), label: t('views7d'), color: palette.warning.main },
            ]}
            margin={{ left: 8, right: 8 }}
          />
        </Box>
      )}
      <StatsTable
        caption={title}
        file={`request-${requestId}-variants`}
        columns={[
          { key: 'variant', label: translate('kadr.analytics.columns.video') },
          { key: 'views24h', label: t('views24h'), numeric: true },
          { key: 'views7d', label: t('views7d'), numeric: true },
          { key: 'views', label: t('views_now'), numeric: true },
          { key: 'background', label: t('background') },
        ]}
        // Each variant's parameters are on its card below; the file holds them too.
        csvOnly={paramsOf(variants[0]!, (k) => t(`params.${k}`)).map(([label], i) => ({ key: `p${i}`, label }))}
        stackOnPhone
        rows={variants.map((v) => ({
          id: v.videoId,
          values: {
            variant: name(v),
            views24h: v.views24h,
            views7d: v.views7d,
            views: v.views,
            background: t(`backgrounds.${v.background}`),
            ...Object.fromEntries(paramsOf(v, (k) => t(`params.${k}`)).map(([, value], i) => [`p${i}`, value])),
          },
        }))}
      />
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ mt: 2 }}>
        {variants.map((v) => (
          <Card key={v.videoId} variant="outlined" sx={{ flex: '1 1 280px', maxWidth: '100%' }} data-variant={v.index}>
            <CardContent>
              <Typography variant="subtitle2" component="h4">
                {name(v)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('background')}: {t(`backgrounds.${v.background}`)}
              </Typography>
              {v.variation ? (
                <Box
                  component="dl"
                  sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1, m: 0 }}
                >
                  {paramsOf(v, (k) => t(`params.${k}`)).map(([label, value]) => (
                    <Box key={label} sx={{ display: 'contents' }}>
                      <Typography component="dt" variant="body2" color="text.secondary">
                        {label}
                      </Typography>
                      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                        {value}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              ) : (
                <Typography variant="body2">{t('no_variation')}</Typography>
              )}
              {v.posts.length ? (
                <StatsTable
                  caption={name(v)}
                  file={`request-${requestId}-variant-${v.index + 1}`}
                  columns={[
                    { key: 'platform', label: translate('kadr.analytics.columns.platform') },
                    { key: 'profile', label: translate('kadr.analytics.columns.profile') },
                    { key: 'views24h', label: t('views24h'), numeric: true },
                    { key: 'views7d', label: t('views7d'), numeric: true },
                    { key: 'views', label: t('views_now'), numeric: true },
                  ]}
                  rows={v.posts.map((p, i) => ({
                    id: i,
                    values: {
                      platform: PLATFORM_TITLES[p.platform],
                      profile: p.profile,
                      views24h: p.views24h,
                      views7d: p.views7d,
                      views: p.views,
                    },
                  }))}
                />
              ) : (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {t('no_posts')}
                </Typography>
              )}
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  );
};
