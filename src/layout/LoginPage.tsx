import { useForm, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  CssBaseline,
  FilledInput,
  FormControl,
  FormHelperText,
  InputLabel,
  ThemeProvider,
  Typography,
} from '@mui/material';
import { useTranslate } from 'ra-core';
import { toast } from 'react-hot-toast';
import type { LoginInput } from '../contract/auth';
import { LoginError } from '../providers/authProvider';
import { muiTheme } from '../common/theme';
import { LanguageSwitch } from './LanguageSwitch';

type Props = { onSubmit: (values: LoginInput) => Promise<unknown> };

// The rules (and zod with them) load on the first check: the page itself does not need them to show.
const resolver: Resolver<LoginInput> = async (...args) => (await import('./loginResolver')).loginResolver(...args);

/**
 * SPEC Login: login and password, 'Увійти'; §5 rules; §8 toasts on success and failure. It brings the panel's
 * theme and baseline itself, so the first load (outside react-admin) and the page after a logout (inside it)
 * look the same: the panel's filled fields, no page margin.
 */
export const LoginPage = (props: Props) => (
  <ThemeProvider theme={muiTheme}>
    <CssBaseline enableColorScheme />
    <LoginForm {...props} />
  </ThemeProvider>
);

const LoginForm = ({ onSubmit }: Props) => {
  const translate = useTranslate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({
    resolver,
    defaultValues: { login: '', password: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
      toast.success(translate('kadr.notifications.logged_in'));
    } catch (e) {
      const err = e as LoginError;
      for (const [field, message] of Object.entries(err.errors ?? {})) setError(field as keyof LoginInput, { message });
      toast.error(err?.message || translate('kadr.notifications.error'));
    }
  });
  const help = (m?: string) => (m ? translate(m, { _: m }) : undefined);
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#eef1f6' }}
    >
      <Card
        sx={{ width: 360 }}
        component="form"
        onSubmit={submit}
        noValidate
        aria-label={translate('kadr.login.title')}
      >
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
            {translate('kadr.login.title')}
          </Typography>
          <LoginField
            label={translate('kadr.login.login')}
            autoComplete="username"
            autoFocus
            field={register('login')}
            error={help(errors.login?.message)}
          />
          <LoginField
            label={translate('kadr.login.password')}
            type="password"
            autoComplete="current-password"
            field={register('password')}
            error={help(errors.password?.message)}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={16} /> : null}
          >
            {translate('kadr.login.submit')}
          </Button>
          <LanguageSwitch />
        </CardContent>
      </Card>
    </Box>
  );
};

type FieldProps = {
  label: string;
  field: UseFormRegisterReturn;
  error: string | undefined;
  type?: string;
  autoComplete: string;
  autoFocus?: boolean;
};

/**
 * A filled text field as MUI's TextField draws it (the theme's FormControl defaults), put together from its
 * parts: TextField brings Select, Menu and Popover along, which the login page never shows.
 */
const LoginField = ({ label, field: { ref, ...field }, error, ...input }: FieldProps) => {
  const id = `login-${field.name}`;
  return (
    <FormControl error={!!error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <FilledInput id={id} inputRef={ref} {...field} {...input} aria-describedby={`${id}-helper`} />
      <FormHelperText id={`${id}-helper`}>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
};
