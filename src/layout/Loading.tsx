import { Box, CircularProgress } from '@mui/material';

/** Shown while the auth state loads and on the index route. */
export const Loading = () => (
  <Box
    role="progressbar"
    aria-label="loading"
    sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '60vh' }}
  >
    <CircularProgress />
  </Box>
);
