import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  FormGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { AccountRecord } from '../contract/accounts';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { WEEKDAYS, type Slots } from '../contract/slots';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';
import { useProfileSlots } from './useProfileZone';

type Draft = { days: number[]; times: string; minGapMinutes: string };
/** The fields show what is saved; a platform without slots starts empty (the times field suggests an example). */
const draftOf = (s: Slots | undefined): Draft => ({
  days: s?.days ?? [],
  times: (s?.times ?? []).join(', '),
  minGapMinutes: String(s?.minGapMinutes ?? 0),
});
/** A button in the fields' row keeps its words on one line (the fields give way). */
const rowButton = { whiteSpace: 'nowrap', flexShrink: 0 } as const;

/** One platform's weekly slots: weekdays, local times, the minimum gap; save or remove. */
const PlatformSlots = ({ accountId, platform, saved }: { accountId: number; platform: PlatformKey; saved?: Slots }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const done = (message: string) => {
    notify(message, { type: 'success' });
    void queryClient.invalidateQueries({ queryKey: ['slots', accountId] });
  };
  const fail = (e: unknown) => {
    for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
  };
  const save = useMutation({
    mutationFn: () =>
      dataProvider.saveSlots(accountId, platform, {
        days: draft.days,
        times: draft.times
          .split(/[,\s]+/)
          .map((t) => t.trim())
          .filter(Boolean)
          .map((t) => (/^\d:\d\d$/.test(t) ? `0${t}` : t)),
        minGapMinutes: Number(draft.minGapMinutes) || 0,
      }),
    onSuccess: () => done('kadr.slots.saved'),
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => dataProvider.removeSlots(accountId, platform),
    onSuccess: () => done('kadr.slots.removed'),
    onError: fail,
  });
  const toggle = (d: number) =>
    setDraft((x) => ({ ...x, days: x.days.includes(d) ? x.days.filter((y) => y !== d) : [...x.days, d].sort() }));
  return (
    <Stack spacing={1} role="group" aria-label={PLATFORM_TITLES[platform]} data-slots={platform}>
      <Typography variant="subtitle1">
        {PLATFORM_TITLES[platform]}
        {!saved && ` · ${translate('kadr.slots.none')}`}
      </Typography>
      <FormGroup row>
        {WEEKDAYS.map((d) => (
          <FormControlLabel
            key={d}
            control={<Checkbox size="small" checked={draft.days.includes(d)} onChange={() => toggle(d)} />}
            label={translate(`kadr.slots.weekdays.${d}`)}
          />
        ))}
      </FormGroup>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label={translate('kadr.slots.times')}
          value={draft.times}
          onChange={(e) => setDraft((x) => ({ ...x, times: e.target.value }))}
          placeholder={translate('kadr.slots.times_placeholder')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-field': 'times' } }}
        />
        <TextField
          size="small"
          type="number"
          label={translate('kadr.slots.min_gap')}
          value={draft.minGapMinutes}
          onChange={(e) => setDraft((x) => ({ ...x, minGapMinutes: e.target.value }))}
          slotProps={{ htmlInput: { min: 0, max: 1440, 'data-field': 'minGap' } }}
        />
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          disabled={save.isPending}
          data-action="save-slots"
          sx={rowButton}
        >
          {translate('kadr.slots.save')}
        </Button>
        {saved && (
          <Button color="error" onClick={() => remove.mutate()} disabled={remove.isPending} sx={rowButton}>
            {translate('kadr.slots.remove')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
};

/**
 * The profile's posting slots (issue 21 item 3), on its page: per platform, weekly times local to the profile's
 * zone and a minimum gap; "add to queue" in the publish form places posts in the next free ones within the
 * platform's budget.
 */
export const SlotsPanel = () => {
  const translate = useTranslate();
  const record = useRecordContext<AccountRecord>();
  const slots = useProfileSlots(record?.id);
  if (!record?.id || !slots.data) return null;
  const zone = slots.data.timeZone;
  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="slots-panel">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6">{translate('kadr.slots.title')}</Typography>
          <Alert severity="info">{translate('kadr.slots.dst_note', { zone })}</Alert>
          {PLATFORMS.map((p) => (
            <PlatformSlots
              // A saved change re-reads the row; the draft starts again from it.
              key={`${p}-${JSON.stringify(slots.data.slots.find((s) => s.platform === p) ?? null)}`}
              accountId={record.id}
              platform={p}
              saved={slots.data.slots.find((s) => s.platform === p)}
            />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};
