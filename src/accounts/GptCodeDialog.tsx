import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, TextInput, useTranslate } from 'react-admin';
import { AIM } from '../contract/ai';

const required = (v: unknown) => (typeof v === 'string' && v.trim() ? undefined : AIM.codeRequired);

/** SPEC §2 modal 'Код авторизації': one field 'Код' and the button 'Відправити'. */
export const GptCodeDialog = ({
  open,
  onSend,
  onClose,
}: {
  open: boolean;
  onSend: (code: string) => Promise<void>;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="gpt-code-title">
      <DialogTitle id="gpt-code-title">{translate('kadr.ai.code.title')}</DialogTitle>
      {/* The dialog sits inside the profile form in React's tree: its submit must not reach (and save) that form. */}
      <Box onSubmit={(e) => e.stopPropagation()}>
        <Form
          onSubmit={async (v: { code?: string }) => onSend(String(v.code ?? '').trim())}
          defaultValues={{ code: '' }}
          noValidate
        >
          <DialogContent sx={{ pt: 0 }}>
            <TextInput
              source="code"
              label="kadr.ai.code.field"
              validate={required}
              autoFocus
              autoComplete="one-time-code"
              helperText="kadr.ai.code.help"
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('kadr.common.cancel')}</Button>
            <Button type="submit" variant="contained">
              {translate('kadr.ai.code.send')}
            </Button>
          </DialogActions>
        </Form>
      </Box>
    </Dialog>
  );
};
