import { Link } from 'react-router-dom';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button, Card, CardContent, Typography } from '@mui/material';
import { Title, useTranslate, type HttpError } from 'react-admin';

/**
 * A record that is not there, or is another user's (the server answers both with 404): the same screen on every
 * detail page, inside the layout with its title, saying so and leading back to its list. No toast, no redirect.
 * An unknown path keeps the SPEC's '404' screen (NotFound).
 */
export const RecordNotFound = ({ back }: { back: string }) => {
  const translate = useTranslate();
  const title = translate('kadr.layout.record_not_found');
  return (
    <Card sx={{ mt: 2 }} data-testid="record-not-found">
      <Title title={title} />
      <CardContent>
        <Typography variant="h6" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ my: 1 }}>
          {translate('kadr.layout.record_not_found_text')}
        </Typography>
        <Button component={Link} to={back} startIcon={<ArrowBackIcon />}>
          {translate('kadr.layout.back_to_list')}
        </Button>
      </CardContent>
    </Card>
  );
};

/** A read that found nothing the caller may see: 404, or an id (of any name) the server refuses as malformed. */
export const isGone = (error: unknown) => {
  const status = (error as HttpError | null)?.status;
  return status === 404 || status === 400;
};
