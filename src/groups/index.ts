import { createElement } from 'react';
import { Route } from 'react-router-dom';
import GroupsIcon from '@mui/icons-material/Workspaces';
import { lazyScreen } from '../common/lazyScreen';
import { loadGroupList } from '../firstScreen';

const GroupList = lazyScreen(loadGroupList, 'GroupList');
const GroupCreate = lazyScreen(() => import('./GroupForm'), 'GroupCreate');
const GroupEdit = lazyScreen(() => import('./GroupForm'), 'GroupEdit');

/**
 * Resource "accounts/group": /accounts/group (list), /accounts/group/create, /accounts/group/{id}, plus
 * the SPEC path /accounts/group/list (a static child route, so it wins over `:id`). React Router ranks
 * /accounts/group/* above the profiles' /accounts/*, so their /accounts/{id} never catches these paths.
 */
export default {
  list: GroupList,
  edit: GroupEdit,
  create: GroupCreate,
  icon: GroupsIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: 'list', element: createElement(GroupList) }),
};
