import DownloadIcon from '@mui/icons-material/Download';
import { Fragment, type ReactNode } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import {
  DataTable,
  List,
  SelectInput,
  SimpleList,
  TextInput,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, type AuditEntry } from '../contract/audit';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { ListActions } from '../common/listFilters';
import { NothingFound } from '../common/NothingFound';
import { useFormatUtc } from '../common/useFormatUtc';
import { useIsSmall } from '../common/useIsSmall';
import { UtcFilterInput } from './UtcFilterInput';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailLabel, detailText } from './detailText';

const WIDE = { minWidth: 200 };

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

/** The kinds of object, in the reader's language. */
const ObjectTypeFilter = (props: { source: string }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      {...props}
      label="kadr.audit.filters.object_type"
      sx={WIDE}
      choices={AUDIT_OBJECT_TYPES.map((t) => ({ id: t, name: translate(`kadr.audit.objects.${t}`) }))}
    />
  );
};

const filters = [
  <TextInput key="actor" source="actor" label="kadr.audit.filters.actor" alwaysOn />,
  <ActionFilter key="action" source="action" alwaysOn />,
  <ObjectTypeFilter key="objectType" source="objectType" />,
  <TextInput key="objectId" source="objectId" label="kadr.audit.filters.object_id" />,
  <UtcFilterInput key="from" source="from" label="kadr.audit.filters.from_utc" alwaysOn />,
  <UtcFilterInput key="to" source="to" label="kadr.audit.filters.to_utc" alwaysOn />,
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

const ActionText = ({ entry }: { entry: AuditEntry }) => {
  const translate = useTranslate();
  return <>{translate(`kadr.audit.actions.${entry.action}`, { _: entry.action })}</>;
};

/** The object: its kind in the reader's language (an unknown kind as it is recorded), and its id. */
const ObjectText = ({ entry }: { entry: AuditEntry }) => {
  const translate = useTranslate();
  if (!entry.objectType) return <>—</>;
  const kind = translate(`kadr.audit.objects.${entry.objectType}`, { _: entry.objectType });
  return <>{`${kind} #${entry.objectId ?? '—'}`}</>;
};

/**
 * The details, one line per field (`name: value`) in the reader's words (detailText), a long value (an address,
 * a title) wrapping in its line.
 */
const DetailLines = ({ entry }: { entry: AuditEntry }) => {
  const translate = useTranslate();
  const formatDate = useFormatUtc();
  return entry.detail ? (
    <Box component="span" sx={{ display: 'block', fontSize: 13 }} data-audit-detail>
      {Object.entries(entry.detail).map(([k, v]) => (
        <Box component="span" key={k} sx={{ display: 'block', overflowWrap: 'anywhere' }} data-detail-field={k}>
          <Box component="span" sx={{ color: 'text.secondary' }}>{`${detailLabel(k, translate)}: `}</Box>
          {detailText(k, v, translate, formatDate)}
        </Box>
      ))}
    </Box>
  ) : null;
};

const With = ({ as: As }: { as: (p: { entry: AuditEntry }) => ReactNode }) => {
  const entry = useRecordContext<AuditEntry>();
  return entry ? <As entry={entry} /> : null;
};

/** A login or an address with a break opportunity after each separator (an IPv6 address wraps at its colons). */
const Breakable = ({ text }: { text: string | null }) =>
  text ? (
    <>
      {text.split(/(?<=[:.@_-])/).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  ) : null;
const ActorText = ({ entry }: { entry: AuditEntry }) => <Breakable text={entry.actorLogin} />;
const IpText = ({ entry }: { entry: AuditEntry }) => <Breakable text={entry.ip} />;

const AtText = ({ entry }: { entry: AuditEntry }) => {
  const formatDate = useFormatUtc();
  return <>{formatDate(entry.at)}</>;
};

/** A phone: one stacked entry (when, who, what, to which object, from where, details). */
const StackedEntry = ({ entry }: { entry: AuditEntry }) => {
  const translate = useTranslate();
  return (
    <Stack component="span" spacing={0.25} sx={{ display: 'flex', minWidth: 0 }} data-audit-entry={entry.id}>
      <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>
        <ActionText entry={entry} /> · <ObjectText entry={entry} />
      </Typography>
      <Typography component="span" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        <AtText entry={entry} /> · {entry.actorLogin ?? '—'}
      </Typography>
      {entry.ip && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {translate('kadr.audit.fields.ip')}: {entry.ip}
        </Typography>
      )}
      <DetailLines entry={entry} />
    </Stack>
  );
};

/** /audit (admins): the append-only audit log, newest first, with filters and the CSV export. */
const AuditEntries = () => {
  const isSmall = useIsSmall();
  return isSmall ? (
    <SimpleList
      linkType={false}
      empty={<NothingFound />}
      primaryText={(e: AuditEntry) => <StackedEntry entry={e} />}
      sx={{ '& .MuiListItem-root, & .MuiListItemButton-root': { px: 1 } }}
    />
  ) : (
    <DataTable bulkActionButtons={false} rowClick={false} empty={<NothingFound />}>
      <DataTable.Col source="at" label="kadr.audit.fields.at" disableSort>
        <With as={AtText} />
      </DataTable.Col>
      <DataTable.Col source="actorLogin" label="kadr.audit.fields.actorLogin" disableSort>
        <With as={ActorText} />
      </DataTable.Col>
      <DataTable.Col source="action" label="kadr.audit.fields.action" disableSort>
        <With as={ActionText} />
      </DataTable.Col>
      <DataTable.Col source="objectType" label="kadr.audit.fields.objectType" disableSort>
        <With as={ObjectText} />
      </DataTable.Col>
      <DataTable.Col source="ip" label="kadr.audit.fields.ip" disableSort>
        <With as={IpText} />
      </DataTable.Col>
      <DataTable.Col source="detail" label="kadr.audit.fields.detail" disableSort sx={{ minWidth: 200 }}>
        <With as={DetailLines} />
      </DataTable.Col>
    </DataTable>
  );
};

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
    <AuditEntries />
  </List>
);
