import { Box, Button, CircularProgress } from '@mui/material';
import { useListContext, useTranslate } from 'ra-core';
import { pageWindow } from './pageWindow';

/** Page numbers with first/last, ±2 around the current page and midpoint ellipses; hidden at ≤ 1 page. */
export const Pagination = () => {
  const { page, setPage, total, perPage, isFetching, meta } = useListContext();
  const translate = useTranslate();
  const totalPages: number = meta?.totalPages ?? (total != null ? Math.ceil(total / perPage) : 0);
  const items = pageWindow(page, totalPages);
  if (!items.length)
    return isFetching ? (
      <Box sx={{ p: 1 }}>
        <CircularProgress size={18} />
      </Box>
    ) : null;
  return (
    <Box
      component="nav"
      aria-label="pagination"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, p: 1, flexWrap: 'wrap' }}
    >
      {items.map((it) =>
        it.type === 'page' ? (
          <Button
            key={it.page}
            size="small"
            variant={it.page === page ? 'contained' : 'text'}
            aria-current={it.page === page ? 'page' : undefined}
            onClick={() => it.page !== page && setPage(it.page)}
            sx={{ minWidth: 36 }}
          >
            {it.page}
          </Button>
        ) : (
          <Button
            key={it.key}
            size="small"
            title={translate('ra.navigation.page_range_info', {
              offsetBegin: it.target,
              offsetEnd: it.target,
              total: totalPages,
              _: String(it.target),
            })}
            onClick={() => setPage(it.target)}
            sx={{ minWidth: 36 }}
          >
            …
          </Button>
        ),
      )}
      {isFetching && <CircularProgress size={18} sx={{ ml: 1 }} aria-label="loading" />}
    </Box>
  );
};
