import { DataTable, List, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Link, Typography } from '@mui/material';
import { PAGE_SIZE } from '../contract/pagination';
import type { AiLog } from '../contract/ai';
import { Pagination } from '../common/Pagination';
import { StatusBadge } from '../common/StatusBadge';
import { UtcDateField } from '../common/UtcDateField';
import { EmailText } from '../common/EmailText';
import { ErrorDetail } from '../common/ErrorDetail';
import { useStoredMessage } from '../common/useStoredMessage';
import { OPEN_PROFILES, sessionPath } from './paths';
import { EmptyList } from '../common/EmptyList';
import { useIsSmall } from '../common/useIsSmall';

/** The session's email, linking to the session (a log of a deleted session has none). */
const SessionCell = () => {
  const s = useRecordContext<AiLog>()?.userSession;
  if (!s) return <>—</>;
  return (
    <Link component={RouterLink} to={sessionPath(s.id)}>
      <EmailText email={s.email} />
    </Link>
  );
};
/**
 * The log text: an i18n key with parameters (stored by the AI service), shown in the reader's language. A
 * provider's long token wraps anywhere; on a phone the session and date sit under it instead of in columns.
 */
const MessageCell = ({ withDetails }: { withDetails: boolean }) => {
  const storedMessage = useStoredMessage();
  const r = useRecordContext<AiLog>();
  return (
    <>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {storedMessage(r?.message)}
      </Typography>
      <ErrorDetail detail={r?.detail} label="provider" />
      {withDetails && (
        <Typography variant="caption" color="text.secondary" component="div">
          <SessionCell /> · <UtcDateField source="createdAt" />
        </Typography>
      )}
    </>
  );
};
const StatusCell = () => <StatusBadge kind="aiLog" status={useRecordContext<AiLog>()?.status} />;

/** /ai/logs (SPEC §2 AI): paginated, newest first — id, linked session email, message, status, date (UTC). */
export const AiLogList = () => {
  const translate = useTranslate();
  const isSmall = useIsSmall();
  return (
    <List
      resource="ai/info/logs"
      title={translate('kadr.ai.logs_title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      exporter={false}
      empty={false}
      actions={false}
      storeKey={false}
    >
      <DataTable
        bulkActionButtons={false}
        empty={<EmptyList list="ai_logs" action={OPEN_PROFILES} />}
        rowClick={false}
        data-testid="ai-logs"
      >
        <DataTable.Col source="id" label="kadr.ai.fields.id" disableSort />
        {!isSmall && (
          <DataTable.Col source="userSession" label="kadr.ai.fields.session" disableSort>
            <SessionCell />
          </DataTable.Col>
        )}
        <DataTable.Col source="message" label="kadr.ai.fields.message" disableSort>
          <MessageCell withDetails={isSmall} />
        </DataTable.Col>
        <DataTable.Col source="status" label="kadr.ai.fields.status" disableSort>
          <StatusCell />
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="createdAt" label="kadr.ai.fields.date" disableSort>
            <UtcDateField source="createdAt" />
          </DataTable.Col>
        )}
      </DataTable>
    </List>
  );
};
