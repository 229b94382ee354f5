import type { ReactElement, ReactNode } from 'react';
import { Collapse, List, ListItemIcon, MenuItem, Tooltip, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useSidebarState } from 'react-admin';

type Props = {
  open: boolean;
  onToggle: () => void;
  icon: ReactElement;
  label: string;
  children: ReactNode;
  name: string;
};

/** A collapsible menu group (react-admin's demo pattern; nested menus are Enterprise-only). */
export const SubMenu = ({ open, onToggle, icon, label, children, name }: Props) => {
  const [sidebarOpen] = useSidebarState();
  const header = (
    <MenuItem
      onClick={onToggle}
      aria-expanded={open}
      data-menu-group={name}
      sx={{ '& .MuiListItemIcon-root': { minWidth: 40 } }}
    >
      <ListItemIcon>{open ? <ExpandMore /> : icon}</ListItemIcon>
      <Typography variant="inherit" color="textSecondary">
        {label}
      </Typography>
    </MenuItem>
  );
  return (
    <div>
      {sidebarOpen ? (
        header
      ) : (
        <Tooltip title={label} placement="right">
          {header}
        </Tooltip>
      )}
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List
          dense
          component="div"
          disablePadding
          sx={{ '& .MuiMenuItem-root': { transition: 'padding-left 195ms', pl: sidebarOpen ? 4 : 2 } }}
        >
          {children}
        </List>
      </Collapse>
    </div>
  );
};
