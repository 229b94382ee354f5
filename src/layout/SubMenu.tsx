import type { ReactElement, ReactNode } from 'react';
import { Box, Collapse, List, ListItemIcon, MenuItem, Tooltip, Typography } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
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

/**
 * A collapsible menu group (react-admin's demo pattern; nested menus are Enterprise-only). The group keeps its
 * own icon; whether it is open shows as a small arrow at the end (expanded sidebar). Its items wear their own
 * icons; in the collapsed sidebar they sit on a tinted band under the group's icon, each with a tooltip.
 */
export const SubMenu = ({ open, onToggle, icon, label, children, name }: Props) => {
  const [sidebarOpen] = useSidebarState();
  const header = (
    <MenuItem
      onClick={onToggle}
      aria-expanded={open}
      data-menu-group={name}
      sx={{ '& .MuiListItemIcon-root': { minWidth: 40 } }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <Typography variant="inherit" color="textSecondary" sx={{ flex: 1 }}>
        {label}
      </Typography>
      {sidebarOpen &&
        (open ? (
          <ExpandLess fontSize="small" color="action" data-expand="less" />
        ) : (
          <ExpandMore fontSize="small" color="action" data-expand="more" />
        ))}
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
        <Box
          sx={{
            bgcolor: sidebarOpen ? undefined : 'action.hover',
            borderLeft: sidebarOpen ? undefined : 3,
            borderColor: 'primary.light',
            transition: 'background-color 195ms',
          }}
        >
          <List
            dense
            component="div"
            disablePadding
            aria-label={label}
            sx={{
              '& .MuiMenuItem-root': { transition: 'padding-left 195ms', pl: sidebarOpen ? 4 : '13px' },
            }}
          >
            {children}
          </List>
        </Box>
      </Collapse>
    </div>
  );
};
