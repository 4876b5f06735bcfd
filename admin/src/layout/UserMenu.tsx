/** The user menu (spec 2): the user's name; profile (personal-info dialog), home, log out. */
import { useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Divider, ListItemIcon, Menu, MenuItem } from '@mui/material';
import Person from '@mui/icons-material/Person';
import Home from '@mui/icons-material/Home';
import Logout from '@mui/icons-material/Logout';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useLogout, useTranslate } from 'react-admin';
import { useUser } from '../providers/hooks.ts';
import { HOME_PATH } from '../routing/routeTable.ts';

export function UserMenu({ onProfile }: { onProfile: () => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const logout = useLogout();
  const user = useUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"
        onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
        endIcon={<ExpandMore />}
        startIcon={<Person />}
        data-testid="user-menu"
        sx={{ textTransform: 'none', whiteSpace: 'nowrap', color: 'text.primary' }}
      >
        <span data-testid="user-name">{user?.name ?? user?.userId ?? ''}</span>
      </Button>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          data-testid="user-menu-profile"
          onClick={() => {
            close();
            onProfile();
          }}
        >
          <ListItemIcon>
            <Person fontSize="small" />
          </ListItemIcon>
          {translate('shell.userMenu.profile')}
        </MenuItem>
        <MenuItem
          data-testid="user-menu-home"
          onClick={() => {
            close();
            navigate(HOME_PATH);
          }}
        >
          <ListItemIcon>
            <Home fontSize="small" />
          </ListItemIcon>
          {translate('shell.userMenu.home')}
        </MenuItem>
        <Divider />
        <MenuItem
          data-testid="user-menu-logout"
          onClick={() => {
            close();
            // react-admin's logout: our authProvider.logout, then the Store (list parameters) is reset
            void logout({}, '/login', false);
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {translate('shell.userMenu.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
