import { useState, useSyncExternalStore, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
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
import { useStore, useTranslate } from 'ra-core';
import { toast } from 'react-hot-toast';
import type { LoginInput } from '../contract/auth';
import type { LoginError, SignInStep } from '../providers/authProvider';
import type { LoginErrors } from './loginCheck';
import { muiThemeOf } from '../common/theme';
import { LanguageSwitch } from './LanguageSwitch';

type Props = { onSubmit: (values: SignInStep) => Promise<unknown> };

type Field = keyof LoginInput;

// The system's light or dark preference, followed live (MUI's useMediaQuery would be one more chunk on /login).
const DARK_QUERY = '(prefers-color-scheme: dark)';
const systemPrefersDark = () => matchMedia(DARK_QUERY).matches;
const onSystemScheme = (changed: () => void) => {
  const query = matchMedia(DARK_QUERY);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
};
const FIELDS: Field[] = ['login', 'password'];

// The rules (and zod with them) load on the first check: the page itself does not need them to show.
const check = async (values: LoginInput) => (await import('./loginCheck')).checkLogin(values);

/**
 * SPEC Login: login and password, 'Увійти'; §5 rules; §8 toasts on success and failure. It brings the panel's
 * theme and baseline itself, so the first load (outside react-admin) and the page after a logout (inside it)
 * look the same: the panel's filled fields, no page margin. Light or dark as the panel is: the theme chosen in its
 * app bar (kept in the store through a logout), else the system's, so a dark panel has no light sign-in before it.
 */
export const LoginPage = (props: Props) => {
  // Set when the password was right and the user has two-factor sign-in on: the code step shows.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [chosen] = useStore<'light' | 'dark' | undefined>('theme');
  const systemDark = useSyncExternalStore(onSystemScheme, systemPrefersDark);
  return (
    <ThemeProvider theme={muiThemeOf(chosen ?? (systemDark ? 'dark' : 'light'))}>
      <CssBaseline enableColorScheme />
      {challenge ? (
        <CodeForm {...props} challenge={challenge} onBack={() => setChallenge(null)} />
      ) : (
        <LoginForm {...props} onChallenge={setChallenge} />
      )}
    </ThemeProvider>
  );
};

/**
 * Two fields, checked as a form library's "on touched" mode does: a field is checked when it loses focus and on
 * every change after that; submitting checks both and focuses the first wrong one. The server's field errors
 * show under their fields.
 */
const LoginForm = ({ onSubmit, onChallenge }: Props & { onChallenge: (challenge: string) => void }) => {
  const translate = useTranslate();
  const [values, setValues] = useState<LoginInput>({ login: '', password: '' });
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [errors, setErrors] = useState<LoginErrors>({});
  const [isSubmitting, setSubmitting] = useState(false);

  // The checks finish in the order they start: each waits for the same module, then runs at once.
  const showCheck = async (next: LoginInput, fields: readonly Field[]) => {
    const found = await check(next);
    setErrors((shown) => ({ ...shown, ...pick(found, fields) }));
    return found;
  };
  const change = (field: Field) => (e: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: e.target.value };
    setValues(next);
    if (touched.has(field)) void showCheck(next, [field]);
  };
  const blur = (field: Field) => () => {
    setTouched((t) => new Set(t).add(field));
    void showCheck(values, [field]);
  };
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setTouched(new Set(FIELDS));
    // Disabled from the click on, so a second click cannot send the form twice while it is checked.
    setSubmitting(true);
    const found = await showCheck(values, FIELDS);
    const wrong = FIELDS.find((f) => found[f]);
    if (wrong) {
      setSubmitting(false);
      (form.elements.namedItem(wrong) as HTMLInputElement | null)?.focus();
      return;
    }
    try {
      await onSubmit(values);
      toast.success(translate('kadr.notifications.logged_in'));
    } catch (e) {
      const challenge = (e as { challenge?: unknown }).challenge;
      if (typeof challenge === 'string') return onChallenge(challenge);
      const err = e as LoginError;
      setErrors(err.errors ?? {});
      toast.error(err?.message || translate('kadr.notifications.error'));
    } finally {
      setSubmitting(false);
    }
  };
  const help = (m?: string) => (m ? translate(m, { _: m }) : undefined);
  return (
    <Frame onSubmit={submit} title={translate('kadr.login.title')}>
      <LoginField
        label={translate('kadr.login.login')}
        autoComplete="username"
        autoFocus
        name="login"
        value={values.login}
        onChange={change('login')}
        onBlur={blur('login')}
        error={help(errors.login)}
      />
      <LoginField
        label={translate('kadr.login.password')}
        type="password"
        autoComplete="current-password"
        name="password"
        value={values.password}
        onChange={change('password')}
        onBlur={blur('password')}
        error={help(errors.password)}
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
    </Frame>
  );
};

/** The page around a form: centred card, title. */
const Frame = ({
  onSubmit,
  title,
  children,
}: {
  onSubmit: (e: FormEvent<HTMLFormElement>) => Promise<void>;
  title: string;
  children: ReactNode;
}) => (
  <Box
    sx={{
      minHeight: '100vh',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      bgcolor: (t) => (t.palette.mode === 'dark' ? t.palette.background.default : '#eef1f6'),
    }}
  >
    <Card
      sx={{ width: 360 }}
      component="form"
      onSubmit={(e: FormEvent<HTMLFormElement>) => void onSubmit(e)}
      noValidate
      aria-label={title}
    >
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  </Box>
);

/** The second step of a user with two-factor sign-in on: a code from the app, or one of the recovery codes. */
const CodeForm = ({ onSubmit, challenge, onBack }: Props & { challenge: string; onBack: () => void }) => {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isSubmitting, setSubmitting] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!code.trim()) return setError(translate('kadr.validation.required'));
    setSubmitting(true);
    try {
      await onSubmit({ challenge, code: code.trim() });
      toast.success(translate('kadr.notifications.logged_in'));
    } catch (e) {
      const err = e as LoginError;
      const message = err?.message || translate('kadr.notifications.error');
      setError(message);
      toast.error(message);
      setSubmitting(false);
    }
  };
  return (
    <Frame onSubmit={submit} title={translate('kadr.two_factor.sign_in_title')}>
      <Typography variant="body2">{translate('kadr.two_factor.sign_in_hint')}</Typography>
      <FormControl error={!!error}>
        <InputLabel htmlFor="login-code">{translate('kadr.two_factor.code')}</InputLabel>
        <FilledInput
          id="login-code"
          name="code"
          autoFocus
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(undefined);
          }}
          aria-describedby="login-code-helper"
        />
        <FormHelperText id="login-code-helper">{error ?? ' '}</FormHelperText>
      </FormControl>
      <Button
        type="submit"
        variant="contained"
        disabled={isSubmitting}
        startIcon={isSubmitting ? <CircularProgress size={16} /> : null}
      >
        {translate('kadr.two_factor.confirm')}
      </Button>
      <Button onClick={onBack}>{translate('kadr.two_factor.back')}</Button>
    </Frame>
  );
};

type FieldProps = {
  label: string;
  name: Field;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  error: string | undefined;
  type?: string;
  autoComplete: string;
  autoFocus?: boolean;
};

/**
 * A filled text field as MUI's TextField draws it (the theme's FormControl defaults), put together from its
 * parts: TextField brings Select, Menu and Popover along, which the login page never shows.
 */
const LoginField = ({ label, error, ...input }: FieldProps) => {
  const id = `login-${input.name}`;
  return (
    <FormControl error={!!error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <FilledInput id={id} {...input} aria-describedby={`${id}-helper`} />
      <FormHelperText id={`${id}-helper`}>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
};

const pick = (errors: LoginErrors, fields: readonly Field[]): LoginErrors =>
  Object.fromEntries(fields.map((f) => [f, errors[f]]));
