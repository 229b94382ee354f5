import { forwardRef } from 'react';
import { Link } from 'react-router-dom';
import { Box, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import SettingsIcon from '@mui/icons-material/Settings';
import ExitIcon from '@mui/icons-material/PowerSettingsNew';
import {
  AppBar as RaAppBar,
  LoadingIndicator,
  TitlePortal,
  UserMenu,
  useLogout,
  useTranslate,
  useUserMenu,
} from 'react-admin';
import { toast } from 'react-hot-toast';
import { NotificationBell } from './NotificationBell';
import { SystemThemeMenuItem, ThemeMenuItem, ThemeToggle } from './ThemeToggle';

const SettingsMenuItem = forwardRef<HTMLAnchorElement>((props, ref) => {
  const { onClose } = useUserMenu() ?? { onClose: () => {} };
  const translate = useTranslate();
  return (
    <MenuItem component={Link} to="/setting" ref={ref} {...props} onClick={onClose}>
      <ListItemIcon>
        <SettingsIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('kadr.layout.settings')}</ListItemText>
    </MenuItem>
  );
});

/** SPEC §8 logout: 'Завантаження ...' then 'Ви вийшли із системи'. */
const LogoutMenuItem = forwardRef<HTMLLIElement>((props, ref) => {
  const logout = useLogout();
  const translate = useTranslate();
  const onClick = async () => {
    const id = toast.loading(translate('kadr.notifications.logging_out'));
    await logout();
    toast.success(translate('kadr.notifications.logged_out'), { id });
  };
  return (
    <MenuItem ref={ref} {...props} onClick={onClick}>
      <ListItemIcon>
        <ExitIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('ra.auth.logout')}</ListItemText>
    </MenuItem>
  );
});

export const AppBar = () => (
  <RaAppBar
    userMenu={
      <UserMenu>
        <SettingsMenuItem />
        <ThemeMenuItem />
        <SystemThemeMenuItem />
        <LogoutMenuItem />
      </UserMenu>
    }
    toolbar={
      <>
        <ThemeToggle />
        <NotificationBell />
        <LoadingIndicator />
      </>
    }
  >
    <Box
      component={Link}
      to="/"
      aria-label="Kadr"
      sx={{
        color: 'inherit',
        textDecoration: 'none',
        fontWeight: 700,
        fontSize: { xs: 18, sm: 20 },
        mr: { xs: 1, sm: 2 },
      }}
    >
      Kadr
    </Box>
    <TitlePortal sx={TITLE} />
  </RaAppBar>
);

/**
 * The page title on one line, cut with an ellipsis (react-admin wraps it in an inline-block, which cannot be
 * cut, so it is made inline), and smaller on a phone so a short 'X #id' title keeps its id (issue 18).
 */
const TITLE = {
  minWidth: 0,
  fontSize: { xs: '1rem', sm: '1.25rem' },
  '& .RaConfigurable-root, & .RaConfigurable-root > span': { display: 'inline' },
};
