import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  CssBaseline,
  TextField,
  ThemeProvider,
  Typography,
} from '@mui/material';
import { useTranslate } from 'ra-core';
import { toast } from 'react-hot-toast';
import { LoginSchema, type LoginInput } from '../contract/auth';
import { LoginError } from '../providers/authProvider';
import { muiTheme } from '../common/theme';

type Props = { onSubmit: (values: LoginInput) => Promise<unknown> };

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
    resolver: zodResolver(LoginSchema),
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
  const help = (m?: string) => (m ? translate(m, { _: m }) : ' ');
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
          <TextField
            label={translate('kadr.login.login')}
            autoComplete="username"
            autoFocus
            {...register('login')}
            error={!!errors.login}
            helperText={help(errors.login?.message)}
            inputProps={{ name: 'login' }}
          />
          <TextField
            label={translate('kadr.login.password')}
            type="password"
            autoComplete="current-password"
            {...register('password')}
            error={!!errors.password}
            helperText={help(errors.password?.message)}
            inputProps={{ name: 'password' }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={16} /> : null}
          >
            {translate('kadr.login.submit')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
