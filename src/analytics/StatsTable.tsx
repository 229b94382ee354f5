import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { downloadCsv, toCsv } from './statsCsv';

export type StatsColumn = { key: string; label: string; numeric?: boolean };
/** A row: each column's value (what the CSV holds), and optionally what the cell shows instead (a link). */
export type StatsRow = {
  id: string | number;
  values: Record<string, string | number | null>;
  cells?: Record<string, ReactNode>;
};

const shown = (v: string | number | null) => (v === null ? '—' : typeof v === 'number' ? v.toLocaleString() : v);

const visuallyHiddenBox = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/**
 * On a phone, a table too wide for it (`stackOnPhone`: a long name and three counters) shows each row as a block:
 * its first cell as a heading across, then each counter under its column's name (the cell's `data-label`), three
 * to a line. The markup stays a table (screen readers, tests and the CSV read it the same); only its boxes change.
 */
const stackedOnPhone = {
  '@media (max-width: 599.95px)': {
    '& thead': visuallyHiddenBox,
    '& tbody tr': {
      display: 'grid',
      gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
      columnGap: 1,
      py: 1,
      borderBottom: 1,
      borderColor: 'divider',
    },
    '& tbody th, & tbody td': { display: 'block', border: 0, p: 0, textAlign: 'left', overflowWrap: 'break-word' },
    '& tbody th': { gridColumn: '1 / -1', fontWeight: 500, mb: 0.5 },
    '& tbody td::before': {
      content: 'attr(data-label)',
      display: 'block',
      fontSize: '0.75rem',
      color: 'text.secondary',
    },
  },
} as const;

/**
 * A chart's numbers as a table (what a screen reader reads instead of the picture), with its caption, and the
 * same numbers as a CSV file. A table narrow enough for a phone stays one; a wider one stacks its rows there.
 */
export function StatsTable({
  caption,
  file,
  columns,
  rows,
  stackOnPhone = false,
  csvOnly = [],
}: {
  caption: string;
  file: string;
  columns: StatsColumn[];
  rows: StatsRow[];
  stackOnPhone?: boolean;
  /** Columns the CSV file holds after the shown ones (what the screen shows beside the table instead). */
  csvOnly?: StatsColumn[];
}) {
  const translate = useTranslate();
  const csv = () =>
    downloadCsv(
      file,
      toCsv(
        [...columns, ...csvOnly].map((c) => c.label),
        rows.map((r) => [...columns, ...csvOnly].map((c) => r.values[c.key] ?? null)),
      ),
    );
  return (
    <Stack spacing={1}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          onClick={csv}
          aria-label={translate('kadr.analytics.csv_label', { name: caption })}
        >
          {translate('kadr.analytics.csv')}
        </Button>
      </Box>
      {/* A long table scrolls within 360 px; stacked on a phone its rows grow the page instead (a scroll box inside
          the page's scroll cut the last row in half). */}
      <TableContainer sx={{ maxHeight: stackOnPhone ? { xs: 'none', sm: 360 } : 360, overflowX: 'auto' }}>
        <Table size="small" stickyHeader data-stats-table={file} sx={stackOnPhone ? stackedOnPhone : undefined}>
          <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0 }}>
            <Box component="span" sx={visuallyHiddenBox}>
              {caption}
            </Box>
          </caption>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.numeric ? 'right' : 'left'} scope="col">
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id}>
                {columns.map((c, i) => (
                  <TableCell
                    key={c.key}
                    align={c.numeric ? 'right' : 'left'}
                    component={i === 0 ? 'th' : 'td'}
                    scope={i === 0 ? 'row' : undefined}
                    data-label={c.label}
                  >
                    {r.cells?.[c.key] ?? shown(r.values[c.key] ?? null)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}
