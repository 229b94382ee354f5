import { useState, type ReactElement } from 'react';
import { useLocation } from 'react-router-dom';
import { Box } from '@mui/material';
import { MenuItemLink, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import { preloadOnIntent } from './preloadOnIntent';
import PeopleIcon from '@mui/icons-material/People';
import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';
import WallpaperIcon from '@mui/icons-material/Wallpaper';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import RecentActorsIcon from '@mui/icons-material/RecentActors';
import WorkspacesIcon from '@mui/icons-material/Workspaces';
import YouTubeIcon from '@mui/icons-material/YouTube';
import MovieCreationIcon from '@mui/icons-material/MovieCreation';
import ForumIcon from '@mui/icons-material/Forum';
import SmartDisplayIcon from '@mui/icons-material/SmartDisplay';
import PolicyIcon from '@mui/icons-material/Policy';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import InsightsIcon from '@mui/icons-material/Insights';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { SubMenu } from './SubMenu';
import { groupMatches, menuFor } from './menuItems';

const ICONS: Record<string, ReactElement> = {
  profiles: <PeopleIcon />,
  video: <VideoLibraryIcon />,
  background: <WallpaperIcon />,
  tags: <LocalOfferIcon />,
  ai: <SmartToyIcon />,
  users: <ManageAccountsIcon />,
  approvals: <FactCheckIcon />,
  jobs: <PendingActionsIcon />,
  audit: <PolicyIcon />,
};

/** Each item of a group has its own icon, so a collapsed sidebar still tells them apart. */
const LEAF_ICONS: Record<string, ReactElement> = {
  profiles_list: <RecentActorsIcon fontSize="small" />,
  profile_groups: <WorkspacesIcon fontSize="small" />,
  youtube_list: <YouTubeIcon fontSize="small" />,
  calendar: <CalendarMonthIcon fontSize="small" />,
  analytics: <InsightsIcon fontSize="small" />,
  imports: <UploadFileIcon fontSize="small" />,
  create_requests: <MovieCreationIcon fontSize="small" />,
  ai_sessions: <ForumIcon fontSize="small" />,
  ai_videos: <SmartDisplayIcon fontSize="small" />,
  ai_logs: <ReceiptLongIcon fontSize="small" />,
};

/** The sidebar: groups in SPEC order, Users and the job queue last and only for admins; a group opens when it holds the path. */
export const Menu = () => {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const { permissions } = usePermissions();
  const [sidebarOpen] = useSidebarState();
  const groups = menuFor(permissions);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  // On a new path (or once the role is known), the group holding it opens; others stay as the user left them.
  const [seen, setSeen] = useState<string | null>(null);
  const where = `${pathname}|${String(permissions)}`;
  if (seen !== where) {
    setSeen(where);
    const active = groups.find((g) => g.children.length > 1 && groupMatches(g, pathname));
    if (active && !open[active.key]) setOpen({ ...open, [active.key]: true });
  }

  return (
    <Box
      component="nav"
      aria-label="main menu"
      sx={{
        width: sidebarOpen ? 240 : 55,
        mt: 1,
        transition: 'width 195ms',
        // The open screen's item stands out, also when only its icon shows.
        '& .RaMenuItemLink-active .MuiListItemIcon-root': { color: 'primary.main' },
      }}
    >
      {groups.map((g) =>
        g.children.length === 1 ? (
          <MenuItemLink
            key={g.key}
            to={g.children[0].to}
            primaryText={translate(`kadr.menu.${g.children[0].key}`)}
            leftIcon={ICONS[g.icon]}
            data-menu-item={g.children[0].key}
            {...preloadOnIntent(g.children[0].to)}
          />
        ) : (
          <SubMenu
            key={g.key}
            name={g.key}
            open={!!open[g.key]}
            onToggle={() => setOpen((o) => ({ ...o, [g.key]: !o[g.key] }))}
            icon={ICONS[g.icon]}
            label={translate(`kadr.menu.${g.key}`)}
          >
            {g.children.map((c) => (
              <MenuItemLink
                key={c.key}
                to={c.to}
                primaryText={translate(`kadr.menu.${c.key}`)}
                leftIcon={LEAF_ICONS[c.key]}
                data-menu-item={c.key}
                {...preloadOnIntent(c.to)}
              />
            ))}
          </SubMenu>
        ),
      )}
    </Box>
  );
};
