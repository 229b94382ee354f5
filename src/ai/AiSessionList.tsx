import { DataTable, List, useRecordContext, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import type { AiSession } from '../contract/ai';
import { Pagination } from '../common/Pagination';
import { StatusBadge } from '../common/StatusBadge';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { ActiveMark } from './ActiveMark';
import { OPEN_PROFILES, sessionPath } from './paths';
import { EmptyList } from '../common/EmptyList';
import { OneLine } from '../common/OneLine';
import { useIsSmall } from '../common/useIsSmall';

const EmailCell = () => <OneLine text={useRecordContext<AiSession>()?.email} />;
const ActiveCell = () => <ActiveMark active={useRecordContext<AiSession>()?.isActive} />;
const StatusCell = () => <StatusBadge kind="ai" status={useRecordContext<AiSession>()?.status} />;

/** The empty list says where a session comes from: connecting GPT on a profile starts one. */
const NoSessions = () => <EmptyList list="ai_sessions" action={OPEN_PROFILES} />;

/** /ai/list (SPEC §2 AI): sessions with ID, email, active, status and delete; a row opens the session. */
export const AiSessionList = () => {
  const translate = useTranslate();
  const isSmall = useIsSmall();
  return (
    <List
      resource="ai/info"
      title={translate('kadr.ai.sessions_title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      exporter={false}
      empty={false}
      actions={false}
      storeKey={false}
    >
      <DataTable
        bulkActionButtons={false}
        empty={<NoSessions />}
        rowClick={(id) => sessionPath(id)}
        data-testid="ai-sessions"
      >
        <DataTable.Col source="id" label="kadr.ai.fields.id" disableSort />
        <DataTable.Col source="email" label="kadr.ai.fields.email" disableSort>
          <EmailCell />
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="isActive" label="kadr.ai.fields.active" disableSort>
            <ActiveCell />
          </DataTable.Col>
        )}
        <DataTable.Col source="status" label="kadr.ai.fields.status" disableSort>
          <StatusCell />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <DeleteRowButton
            resource="ai/info"
            successMessage="kadr.ai.deleted"
            confirmContent="kadr.ai.delete_content"
          />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
