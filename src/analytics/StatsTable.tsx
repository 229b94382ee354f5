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

/**
 * A chart's numbers as a table (what a screen reader reads instead of the picture), with its caption, and the
 * same numbers as a CSV file. Scrolls sideways inside itself on a narrow screen.
 */
export function StatsTable({
  caption,
  file,
  columns,
  rows,
}: {
  caption: string;
  file: string;
  columns: StatsColumn[];
  rows: StatsRow[];
}) {
  const translate = useTranslate();
  const csv = () =>
    downloadCsv(
      file,
      toCsv(
        columns.map((c) => c.label),
        rows.map((r) => columns.map((c) => r.values[c.key] ?? null)),
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
      <TableContainer sx={{ maxHeight: 360, overflowX: 'auto' }}>
        <Table size="small" stickyHeader data-stats-table={file}>
          <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0 }}>
            <Box component="span" sx={visuallyHidden}>
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

const visuallyHidden = {
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
