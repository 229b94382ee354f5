import { useState } from 'react';
import { Button, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useDataProvider, useNotify, useRefresh, useSaveContext, useTranslate } from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import type { AccountRecord } from '../contract/accounts';
import { AI_CODE_REQUIRED, type AiLoginReply } from '../contract/ai';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';
import { GptCodeDialog } from './GptCodeDialog';

/** SPEC §8: a failed GPT or DeepSeek login shows the response message, else this fallback. */
const LOGIN_FALLBACK = 'kadr.notifications.link_copy_failed';
type Busy = 'gpt' | 'deepseek' | null;
const needsCode = (e: unknown) => {
  const err = e as { status?: number; body?: { status?: number } };
  return err?.status === AI_CODE_REQUIRED || err?.body?.status === AI_CODE_REQUIRED;
};
/** The session id a reply names, if any (a login that waits for a code names the session the code is for). */
const sessionIdOf = (reply: unknown) => {
  const id = (reply as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? id : undefined;
};

/**
 * The GPT connect flow (SPEC §4): 'Підключити GPT' logs in with the form's GPT email, key and proxy; on success
 * the returned session id is stored on the profile (the dataProvider's setAiSession) and the profile reloads; a
 * status 300 opens 'Код авторизації'. No email: 'Email GPT не задан'. A failed login is an error toast (the
 * original showed it success-style: a documented deviation). 'Підключити DeepSeek' shows once a GPT id exists.
 * The login reads the form; unsaved edits are checked before the login and saved for the operator before the id
 * is stored (the reload would drop them). A profile not created yet says so under the button, which waits for
 * it (the session needs the profile's id). The code and
 * DeepSeek steps name the session by id too: sessions are per owner, so for an admin the email alone may name
 * their own session or several users' sessions rather than this profile's.
 */
export const GptButtons = ({ record }: { record?: Partial<AccountRecord> }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { getValues, handleSubmit, trigger } = useFormContext();
  const { isDirty } = useFormState(); // read while rendering, so the form reports it
  const { save } = useSaveContext();
  const created = record?.id != null;
  const email = String(useWatch({ name: 'emailGPT' }) ?? '').trim();
  const [busy, setBusy] = useState<Busy>(null);
  const [codeOpen, setCodeOpen] = useState(false);
  const [codeFor, setCodeFor] = useState<number | undefined>(undefined); // the session waiting for the code
  const fail = (e: unknown) => {
    for (const m of errorMessages(e, translate(LOGIN_FALLBACK))) notify(m, { type: 'error' });
  };
  const ready = async () => {
    if (!email) notify('kadr.accounts.gpt_email_missing', { type: 'error' });
    else if (!created) notify('kadr.ai.profile.create_first', { type: 'warning' });
    // Edits that could not be saved stop here, before a session is made: their messages show by the fields.
    else if (isDirty && !(await trigger())) notify('kadr.ai.profile.save_first', { type: 'warning' });
    else return true;
    return false;
  };
  /** The form's unsaved edits saved through the profile's own save (its toast, its re-initialisation). */
  const saveEdits = () =>
    new Promise<boolean>((resolve) => {
      if (!isDirty || !save) return resolve(true);
      notify('kadr.ai.profile.saving_first', { type: 'info' });
      void handleSubmit(
        async (values) => {
          try {
            resolve(!(await save(values)));
          } catch {
            resolve(false);
          }
        },
        () => resolve(false),
      )();
    });
  /** A login or code reply: store the id and reload, open the code modal, or show why not. */
  const settle = async (reply: AiLoginReply) => {
    if (reply.status === AI_CODE_REQUIRED) {
      setCodeFor(sessionIdOf(reply));
      setCodeOpen(true);
      if (reply.message) notify(reply.message, { type: 'info' });
      return;
    }
    if (!reply.success || reply.id == null) {
      notify(reply.message || LOGIN_FALLBACK, { type: 'error' });
      return;
    }
    if (!(await saveEdits())) return;
    await dataProvider.setAiSession(Number(record!.id), reply.id);
    setCodeOpen(false);
    notify(reply.message || 'kadr.ai.profile.gpt_connected', { type: 'success' });
    refresh();
  };
  const run = async (which: Busy, call: () => Promise<void>) => {
    setBusy(which);
    try {
      await call();
    } catch (e) {
      if (needsCode(e)) {
        setCodeFor(sessionIdOf((e as { body?: unknown })?.body));
        setCodeOpen(true);
      } else fail(e);
    } finally {
      setBusy(null);
    }
  };
  const connectGpt = async () =>
    (await ready()) &&
    run('gpt', async () => {
      const v = getValues();
      const user = { email, password: v.passwordGPT ?? '', idAccount: Number(record!.id) };
      await settle(await dataProvider.aiAction('login', { proxy: v.proxyGPT ?? '', user }));
    });
  const sendCode = (code: string) =>
    run('gpt', async () => settle(await dataProvider.aiAction('code', { email, sessionId: codeFor, code })));
  const connectDeepSeek = async () =>
    (await ready()) &&
    run('deepseek', async () => {
      const password = getValues().passwordDeepSeek ?? '';
      const sessionId = Number(record!.idGPT) || undefined;
      const reply = await dataProvider.aiAction('login-deepseek', { email, sessionId, password });
      if (!reply.success) notify(reply.message || LOGIN_FALLBACK, { type: 'error' });
      else notify(reply.message || 'kadr.ai.profile.deepseek_connected', { type: 'success' });
    });
  const spin = (which: Busy) => (busy === which ? <CircularProgress size={14} /> : undefined);
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <Button
          size="small"
          variant="outlined"
          onClick={connectGpt}
          disabled={!!busy || !created}
          startIcon={spin('gpt')}
          aria-describedby={created ? undefined : 'gpt-create-first'}
        >
          {translate('kadr.accounts.connect_gpt')}
        </Button>
        {record?.idGPT && (
          <Button
            size="small"
            variant="outlined"
            onClick={connectDeepSeek}
            disabled={!!busy}
            startIcon={spin('deepseek')}
          >
            {translate('kadr.accounts.connect_deepseek')}
          </Button>
        )}
      </Stack>
      {!created && (
        <Typography id="gpt-create-first" variant="caption" color="text.secondary">
          {translate('kadr.ai.profile.create_first')}
        </Typography>
      )}
      {record?.idGPT && (
        <Link component={RouterLink} to={`/ai/list/${record.idGPT}`} variant="caption" data-testid="gpt-session-id">
          {translate('kadr.ai.profile.session_id', { id: record.idGPT })}
        </Link>
      )}
      <GptCodeDialog open={codeOpen} onSend={sendCode} onClose={() => setCodeOpen(false)} />
    </Stack>
  );
};
