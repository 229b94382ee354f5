import { Fragment, useMemo, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  FormControlLabel,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ImportIssue, ImportReport } from '../contract/imports';
import type { CsvColumn } from '../contract/publication-csv';
import { PLATFORM_TITLES } from '../contract/platforms';
import { DEFAULT_TIME_ZONE, formatInZone } from '../contract/time-zones';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';
import { readCsv } from './readCsv';
import type { CsvRead } from './csv.worker';

const PAGE = 100;

/** The row's problems, errors first. */
const issuesByRow = (report: ImportReport) => {
  const by = new Map<number, ImportIssue[]>();
  for (const i of report.issues) by.set(i.row, [...(by.get(i.row) ?? []), i]);
  for (const list of by.values()) list.sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
  return by;
};

/** Every column of the file, in its order (the type keeps the list whole; the parser stays out of this chunk). */
const COLUMNS: Record<CsvColumn, true> = {
  video: true,
  profile: true,
  group: true,
  platforms: true,
  title: true,
  description: true,
  tags: true,
  date: true,
  repeat: true,
};

/** What the file holds: each column's header as it is written (code), with what goes in it in the reader's words. */
const CsvColumnsHelp = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 2, color: 'text.secondary' }}>
      <Typography variant="body2">{translate('kadr.imports.help_intro')}</Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
          columnGap: 2,
          rowGap: { xs: 0, sm: 0.5 },
          my: 1,
          typography: 'body2',
        }}
      >
        {(Object.keys(COLUMNS) as CsvColumn[]).map((c) => (
          <Fragment key={c}>
            <Box component="dt" sx={{ mt: { xs: 0.75, sm: 0 } }}>
              <Box
                component="code"
                data-csv-column={c}
                sx={{ px: 0.5, borderRadius: 0.5, bgcolor: 'action.hover', color: 'text.primary' }}
              >
                {c}
              </Box>
            </Box>
            <Box component="dd" sx={{ m: 0 }}>
              {translate(`kadr.imports.columns.${c}`)}
            </Box>
          </Fragment>
        ))}
      </Box>
    </Box>
  );
};

/**
 * Publications from a CSV file (issue 21 item 4): the file is dropped (react-dropzone), read and parsed in a web
 * worker, checked by the server (a dry run: every row with its errors and warnings, each naming its field), and
 * written only when the operator confirms a file without errors — all rows in one transaction. The export
 * downloads the publications in the same columns.
 */
export const ImportPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [file, setFile] = useState<(CsvRead & { name: string }) | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState<'reading' | 'checking' | 'writing' | null>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [page, setPage] = useState(0);

  const fail = (e: unknown) =>
    notify(errorMessages(e, translate('ra.notification.http_error')).join(' '), { type: 'error' });

  const check = async (text: string) => {
    setBusy('checking');
    try {
      setReport(await dataProvider.importDryRun(text));
      setPage(0);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  const onDrop = async (files: File[]) => {
    const f = files[0];
    if (!f) return;
    setReport(null);
    setBusy('reading');
    try {
      const read = await readCsv(f);
      setFile({ ...read, name: f.name });
      await check(read.text);
    } catch (e) {
      fail(e);
      setBusy(null);
    }
  };
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: (f) => void onDrop(f),
    multiple: false,
    accept: { 'text/csv': ['.csv'], 'text/plain': ['.txt'] },
  });

  const commit = async () => {
    if (!file) return;
    setBusy('writing');
    try {
      const done = await dataProvider.importCommit(file.text);
      notify(translate('kadr.imports.written', { posts: done.posts }), { type: 'success' });
      setReport(null);
      setFile(null);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  const exportCsv = async () => {
    try {
      const text = await dataProvider.exportPublications();
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'publications.csv';
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      fail(e);
    }
  };

  const byRow = useMemo(() => (report ? issuesByRow(report) : new Map<number, ImportIssue[]>()), [report]);
  const fileIssues = byRow.get(1) ?? [];
  const shown = useMemo(
    () => (report ? report.rows.filter((r) => !onlyProblems || byRow.has(r.row)) : []),
    [report, onlyProblems, byRow],
  );

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('kadr.imports.title')} />
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="h6">{translate('kadr.imports.title')}</Typography>
          <Button startIcon={<DownloadIcon />} onClick={() => void exportCsv()}>
            {translate('kadr.imports.export')}
          </Button>
        </Stack>
        <CsvColumnsHelp />
        <Box
          {...getRootProps()}
          data-testid="import-drop"
          sx={{
            p: 4,
            border: '2px dashed',
            borderColor: isDragActive ? 'primary.main' : 'divider',
            borderRadius: 1,
            textAlign: 'center',
            cursor: 'pointer',
          }}
        >
          <input {...getInputProps()} aria-label={translate('kadr.imports.drop')} />
          <Typography>{file ? file.name : translate('kadr.imports.drop')}</Typography>
          {file && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {translate('kadr.imports.read_rows', { rows: file.rows })}
            </Typography>
          )}
        </Box>
        {busy && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {translate(busy === 'reading' ? 'kadr.imports.reading' : 'kadr.imports.checking', { rows: '…' })}
          </Alert>
        )}
        {report && (
          <Box sx={{ mt: 2 }}>
            <Alert
              severity={report.errors ? 'error' : report.warnings ? 'warning' : 'success'}
              data-testid="import-summary"
            >
              {translate('kadr.imports.summary', {
                rows: report.rows.length,
                posts: report.posts,
                errors: report.errors,
                warnings: report.warnings,
              })}
              {report.errors > 0 && <Box>{translate('kadr.imports.fix_first')}</Box>}
            </Alert>
            {fileIssues.map((i, n) => (
              <Alert key={n} severity={i.level} sx={{ mt: 1 }}>
                {translate('kadr.imports.field_issue', { field: i.field, text: i.text })}
              </Alert>
            ))}
            <Stack direction="row" spacing={2} sx={{ my: 2, alignItems: 'center' }}>
              <Button
                variant="contained"
                disabled={report.errors > 0 || busy !== null || report.posts === 0}
                onClick={() => void commit()}
              >
                {translate('kadr.imports.confirm')}
              </Button>
              <FormControlLabel
                control={<Switch checked={onlyProblems} onChange={(e) => setOnlyProblems(e.target.checked)} />}
                label={translate('kadr.imports.only_problems')}
              />
            </Stack>
            <Table size="small" data-testid="import-rows">
              <TableHead>
                <TableRow>
                  {['row', 'video', 'profile', 'platforms', 'title', 'date', 'problems'].map((c) => (
                    <TableCell key={c}>{translate(`kadr.imports.col_${c}`)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.slice(page * PAGE, (page + 1) * PAGE).map((r) => {
                  const issues = byRow.get(r.row) ?? [];
                  return (
                    <TableRow key={r.row} data-row={r.row}>
                      <TableCell>{r.row}</TableCell>
                      <TableCell>{r.video}</TableCell>
                      <TableCell>{r.profile}</TableCell>
                      <TableCell>{r.platforms.map((p) => PLATFORM_TITLES[p]).join(', ')}</TableCell>
                      <TableCell>
                        {r.title}
                        {r.repeat && <Chip size="small" label={translate('kadr.imports.repeat')} sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell>
                        {r.date ? formatInZone(r.date, r.timeZone ?? DEFAULT_TIME_ZONE, locale) : ''}
                      </TableCell>
                      <TableCell>
                        {issues.map((i, n) => (
                          <Typography
                            key={n}
                            variant="body2"
                            sx={{ color: i.level === 'error' ? 'error.main' : 'warning.main' }}
                          >
                            {translate('kadr.imports.field_issue', { field: i.field, text: i.text })}
                          </Typography>
                        ))}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
            {shown.length > PAGE && (
              <TablePagination
                component="div"
                count={shown.length}
                page={page}
                rowsPerPage={PAGE}
                rowsPerPageOptions={[PAGE]}
                onPageChange={(_, p) => setPage(p)}
              />
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
