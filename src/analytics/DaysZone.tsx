import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Typography } from '@mui/material';
import { zoneAbbreviation } from '../contract/time-zones';

/** The zone a chart's days are in, named as the calendar names its zone: "Europe/Kyiv (EET)". */
export const DaysZone = ({ zone }: { zone: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // The zone's short name as of when the page opened (EET / EEST).
  const [openedAt] = useState(() => Date.now());
  return (
    <Typography variant="body2" color="text.secondary" data-zone={zone}>
      {translate('kadr.analytics.days_in_zone', { zone: `${zone} (${zoneAbbreviation(zone, openedAt, locale)})` })}
    </Typography>
  );
};
