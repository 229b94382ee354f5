import DownloadIcon from '@mui/icons-material/Download';
import { Button, Typography } from '@mui/material';
import {
  DataTable,
  List,
  SelectInput,
  TextInput,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { AUDIT_ACTIONS, type AuditEntry } from '../contract/audit';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { ListActions } from '../common/listFilters';
import { NothingFound } from '../common/NothingFound';
import { formatUtc } from '../common/formatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';

const WIDE = { minWidth: 200 };

/** A `datetime-local` field (the reader's clock) whose filter value is the instant, in UTC. */
const instant = (v: string) => (v ? new Date(v).toISOString() : '');
const local = (v: string | undefined) => {
  if (!v) return '';
  const d = new Date(v);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const ActionFilter = (props: { source: string; alwaysOn?: boolean }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      {...props}
      label="kadr.audit.filters.action"
      sx={WIDE}
      choices={AUDIT_ACTIONS.map((a) => ({ id: a, name: translate(`kadr.audit.actions.${a}`, { _: a }) }))}
    />
  );
};

const filters = [
  <TextInput key="actor" source="actor" label="kadr.audit.filters.actor" alwaysOn />,
  <ActionFilter key="action" source="action" alwaysOn />,
  <TextInput key="objectType" source="objectType" label="kadr.audit.filters.object_type" />,
  <TextInput key="objectId" source="objectId" label="kadr.audit.filters.object_id" />,
  <TextInput
    key="from"
    source="from"
    type="datetime-local"
    label="kadr.audit.filters.from"
    parse={instant}
    format={local}
    InputLabelProps={{ shrink: true }}
    alwaysOn
  />,
  <TextInput
    key="to"
    source="to"
    type="datetime-local"
    label="kadr.audit.filters.to"
    parse={instant}
    format={local}
    InputLabelProps={{ shrink: true }}
    alwaysOn
  />,
];

/** The CSV of what the filters select (every page), from the server. */
const ExportButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues } = useListContext();
  const dataProvider = useDataProvider<KadrDataProvider>();
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      onClick={() =>
        dataProvider
          .exportAuditCsv(filterValues)
          .catch((e: Error) => notify(e.message || 'kadr.notifications.error', { type: 'error' }))
      }
    >
      {translate('kadr.audit.export')}
    </Button>
  );
};

const ActionCell = () => {
  const translate = useTranslate();
  const e = useRecordContext<AuditEntry>();
  return e ? <>{translate(`kadr.audit.actions.${e.action}`, { _: e.action })}</> : null;
};

const ObjectCell = () => {
  const e = useRecordContext<AuditEntry>();
  return e?.objectType ? <>{`${e.objectType} #${e.objectId ?? '—'}`}</> : <>—</>;
};

const DetailCell = () => {
  const e = useRecordContext<AuditEntry>();
  return e?.detail ? (
    <Typography variant="caption" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
      {JSON.stringify(e.detail)}
    </Typography>
  ) : null;
};

/** /audit (admins): the append-only audit log, newest first, with filters and the CSV export. */
export const AuditList = () => (
  <List
    title="kadr.audit.title"
    filters={filters}
    actions={
      <ListActions>
        <ExportButton />
      </ListActions>
    }
    perPage={PAGE_SIZE}
    pagination={<Pagination />}
    empty={false}
    disableSyncWithLocation={false}
  >
    <DataTable bulkActionButtons={false} rowClick={false} empty={<NothingFound />}>
      <DataTable.Col source="at" label="kadr.audit.fields.at" disableSort render={(e: AuditEntry) => formatUtc(e.at)} />
      <DataTable.Col source="actorLogin" label="kadr.audit.fields.actorLogin" disableSort />
      <DataTable.Col source="action" label="kadr.audit.fields.action" disableSort>
        <ActionCell />
      </DataTable.Col>
      <DataTable.Col source="objectType" label="kadr.audit.fields.objectType" disableSort>
        <ObjectCell />
      </DataTable.Col>
      <DataTable.Col source="ip" label="kadr.audit.fields.ip" disableSort />
      <DataTable.Col source="detail" label="kadr.audit.fields.detail" disableSort>
        <DetailCell />
      </DataTable.Col>
    </DataTable>
  </List>
);
