import { useState } from 'react';
import { IconButton, InputAdornment } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { TextInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { hasProxyPassword, maskProxy } from './maskProxy';

/**
 * The profile's proxy with its password masked ('http://user:••••••@host:8080') until the eye is pressed: only
 * the field shows it masked (read-only while it is), the form keeps and saves the address as it is. An address
 * without a password, or one being typed, is a plain field.
 */
export const ProxyInput = ({ label }: { label: string }) => {
  const translate = useTranslate();
  const value: unknown = useWatch({ name: 'proxy' });
  const { getFieldState } = useFormContext();
  const [shown, setShown] = useState(false);
  // A password the user is typing is theirs to see: only a saved address starts masked.
  const canMask = hasProxyPassword(value) && !getFieldState('proxy').isDirty;
  const masked = canMask && !shown;
  const field = translate(label);
  return (
    <TextInput
      source="proxy"
      label={label}
      placeholder="socks5://user:pass@host:1080"
      autoComplete="off"
      format={(v: unknown) => (typeof v === 'string' ? (masked ? maskProxy(v) : v) : '')}
      InputProps={{
        readOnly: masked,
        endAdornment: canMask ? (
          <InputAdornment position="end">
            <IconButton
              size="small"
              edge="end"
              aria-label={translate(masked ? 'kadr.ai.show_secret' : 'kadr.ai.hide_secret', { field })}
              onClick={() => setShown(masked)}
            >
              {masked ? <VisibilityIcon fontSize="small" /> : <VisibilityOffIcon fontSize="small" />}
            </IconButton>
          </InputAdornment>
        ) : undefined,
      }}
    />
  );
};
