import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent } from '@mui/material';
import type { KadrDataProvider } from '../providers/dataProvider';
import { DayChart } from './DayChart';

/** A publication's views on each platform, day by day (running totals), with its table and CSV. */
export const PublicationStats = ({ publicationId }: { publicationId: number }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['analytics', 'publication', publicationId],
    queryFn: ({ signal }) => dataProvider.publicationCurve(publicationId, signal),
  });
  if (!data) return null;
  return (
    <Card>
      <CardContent>
        <DayChart
          title={translate('kadr.analytics.publication_chart')}
          file={`publication-${publicationId}-views`}
          note={translate('kadr.analytics.days_each_zone')}
          points={data.series.map((p) => ({ day: p.day, platform: p.platform, value: p.viewsTotal }))}
        />
      </CardContent>
    </Card>
  );
};
