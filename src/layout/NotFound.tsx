import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useTranslate } from 'ra-core';

/** Any unknown path: '404'. */
export const NotFound = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', mt: 8 }}>
      <Typography variant="h1" component="h1">
        {translate('kadr.layout.not_found')}
      </Typography>
      <Typography sx={{ my: 2 }}>{translate('kadr.layout.not_found_text')}</Typography>
      <Button component={Link} to="/" variant="outlined">
        {translate('kadr.layout.go_home')}
      </Button>
    </Box>
  );
};
